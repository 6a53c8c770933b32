package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.ok;
import static io.olmstead.controlplane.cli.client.CliRun.oneLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client run in-process against a real control plane (PostgreSQL, hollow agents): login, get,
 * describe, apply of the YAML in docs/cli.md, rollout status and commands, approve,
 * upgrade-readiness, and the one-line errors.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliClientIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static HollowFleet eu;
  private static HollowFleet us;
  private static ApiClient api;

  @TempDir static Path home;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(CliClientIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    // the shipped demo catalog's operator (demo/catalog.yaml), beside the fixture's etcd:
    // docs/cli.md's fleet.yaml
    fx.update(
        "INSERT INTO catalog_packages (catalog, revision, package, default_channel) VALUES ('demo', 1, "
            + "'olmstead-demo-operator', 'stable')");
    fx.update(
        "INSERT INTO catalog_channels (catalog, revision, package, channel, head, entries) VALUES ('demo', 1, "
            + "'olmstead-demo-operator', 'stable', 'olmstead-demo-operator.v0.3.0', ?::jsonb)",
        "[{\"name\":\"olmstead-demo-operator.v0.1.0\"},{\"name\":\"olmstead-demo-operator.v0.2.0\",\"replaces\":"
            + "\"olmstead-demo-operator.v0.1.0\"},{\"name\":\"olmstead-demo-operator.v0.3.0\",\"replaces\":"
            + "\"olmstead-demo-operator.v0.2.0\"}]");
    fx.update(
        "INSERT INTO catalog_bundles (catalog, revision, package, bundle, version, channels) VALUES "
            + "('demo', 1, 'olmstead-demo-operator', 'olmstead-demo-operator.v0.1.0', '0.1.0', '{stable}'), "
            + "('demo', 1, 'olmstead-demo-operator', 'olmstead-demo-operator.v0.2.0', '0.2.0', '{stable}'), "
            + "('demo', 1, 'olmstead-demo-operator', 'olmstead-demo-operator.v0.3.0', '0.3.0', '{stable}')");
    vertx = Vertx.vertx();
    eu = fleet("eu-", 2, "{\"env\":\"prod\",\"region\":\"eu\"}");
    us = fleet("us-", 1, "{\"env\":\"prod\",\"region\":\"us\"}");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> fx.count("SELECT count(*) FROM clusters WHERE " + "status = 'connected'") == 3);
  }

  @AfterAll
  static void stop() {
    eu.close();
    us.close();
    vertx.close();
    cp.close();
  }

  private static HollowFleet fleet(String prefix, int count, String labels) {
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            count,
            URI.create(cp.baseUrl()),
            fx.enrollmentToken(count, labels),
            prefix,
            Duration.ofMillis(300),
            0.0,
            Map.of(),
            null,
            0));
  }

  private static Map<String, String> env(String... pairs) {
    Map<String, String> env =
        new HashMap<>(
            Map.of(
                "XDG_CONFIG_HOME",
                home.toString(),
                "OLMSTEAD_URL",
                cp.baseUrl(),
                "OLMSTEAD_TOKEN",
                ADMIN));
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] == null) {
        env.remove(pairs[i]);
      } else {
        env.put(pairs[i], pairs[i + 1]);
      }
    }
    return env;
  }

  private static CliRun cli(String... args) {
    return CliRun.run(env(), "", args);
  }

  /** The n-th ```yaml block of docs/cli.md. */
  private static String docsYaml(int n) throws Exception {
    Matcher m =
        Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL)
            .matcher(Files.readString(Path.of("..", "..", "docs", "cli.md")));
    for (int i = 0; i <= n; i++) {
      assertThat(m.find()).as("yaml block " + n + " of docs/cli.md").isTrue();
    }
    return m.group(1);
  }

  private static Path file(String name, String text) throws Exception {
    Path file = home.resolve("apply").resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text);
  }

  @Test
  @Order(1)
  void loginSavesUrlAndTokenOwnerOnlyNeverPrintsTheTokenAndLaterCommandsUseIt() throws Exception {
    String viewer = api.createToken(ADMIN, "cli-viewer", "viewer", List.of());
    Map<String, String> noEnv = env("OLMSTEAD_URL", null, "OLMSTEAD_TOKEN", null);
    CliRun login =
        CliRun.run(noEnv, viewer + "\n", "login", "--url", cp.baseUrl(), "--token-stdin");
    ok(login);
    assertThat(login.out())
        .contains(
            "Logged in to " + cp.baseUrl() + " as cli-viewer (viewer)",
            "saved as context " + LoginCommand.contextName(URI.create(cp.baseUrl())));
    assertThat(login.out() + login.err()).doesNotContain(viewer);
    Path config =
        home.resolve("olmstead/tokens/" + LoginCommand.contextName(URI.create(cp.baseUrl())));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(home.resolve("olmstead/config"))).doesNotContain(viewer);
    assertThat(ok(CliRun.run(noEnv, "", "config", "get-contexts")).out())
        .contains(cp.baseUrl())
        .doesNotContain(viewer);
    assertThat(ok(CliRun.run(noEnv, "", "get", "clusters")).out())
        .startsWith("NAME")
        .contains("eu-0001");
    // a bad token is refused and not saved
    oneLine(
        CliRun.run(
            noEnv,
            "olm_not-a-real-token-000000\n",
            "login",
            "--url",
            cp.baseUrl(),
            "--token-stdin"),
        ExitCodes.AUTH,
        "token was refused",
        "run olmstead login");
    assertThat(Files.readString(config)).contains(viewer);
    // the saved viewer token may not act: 403 is one line
    oneLine(
        CliRun.run(noEnv, "", "rollout", "pause", "ro-0123456789abc"), ExitCodes.AUTH, "forbidden");
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r-----"));
    oneLine(
        CliRun.run(noEnv, "", "get", "clusters"),
        ExitCodes.AUTH,
        config + " is accessible by other users",
        "chmod 600");
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  @Order(2)
  void aWrongUrlABadTokenAndAnUnknownFlagAreOneLineWithTheirExitCodes() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed;
    oneLine(
        CliRun.run(env("OLMSTEAD_URL", url), "", "get", "clusters"),
        ExitCodes.ERROR,
        "cannot connect to " + url + " (connection refused)",
        "OLMSTEAD_URL");
    oneLine(
        CliRun.run(env("OLMSTEAD_TOKEN", "olm_expired-token-0000000000"), "", "get", "clusters"),
        ExitCodes.AUTH,
        "token was refused",
        "run olmstead login");
    CliRun unknown = cli("get", "clusters", "--colour");
    assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err()).contains("Unknown option: '--colour'").doesNotContain("\tat ");
    oneLine(cli("get", "pods"), ExitCodes.USAGE, "unknown kind 'pods'");
    oneLine(cli("get", "clusters", "-l", "region in (eu"), ExitCodes.USAGE, "invalid -l selector");
    oneLine(cli("get", "clusters", "nowhere"), ExitCodes.NOT_FOUND);
  }

  @Test
  @Order(3)
  void getListsClustersAsATableFilteredBySelectorAndAsJsonOrYaml() throws Exception {
    CliRun table = ok(cli("get", "clusters", "-l", "region=eu"));
    List<String> lines = table.out().lines().toList();
    assertThat(lines.get(0)).matches("NAME +STATUS +LABELS +AGENT +KUBERNETES +LAST-SEEN +AGE");
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).startsWith("eu-0001 ").contains("connected", "env=prod,region=eu");
    // columns line up: STATUS starts at the same offset in every line
    assertThat(lines.get(1).indexOf("connected")).isEqualTo(lines.get(0).indexOf("STATUS"));
    JsonNode json =
        Api.JSON.readTree(ok(cli("get", "clusters", "-l", "region=eu", "-o", "json")).out());
    assertThat(json.path("items"))
        .extracting(n -> n.path("name").asText())
        .containsExactly("eu-0001", "eu-0002");
    JsonNode yaml = new YAMLMapper().readTree(ok(cli("get", "clusters", "-o", "yaml")).out());
    assertThat(yaml.path("items")).hasSize(3);
    JsonNode one = Api.JSON.readTree(ok(cli("get", "cluster", "us-0001", "-o", "json")).out());
    assertThat(one.path("labels").path("region").asText()).isEqualTo("us");
    assertThat(ok(cli("get", "clusters", "-l", "region=mars")).err())
        .contains("No clusters found matching");
  }

  @Test
  @Order(4)
  void applyOfTheDocsExampleCreatesThenReportsUnchangedAndDryRunChangesNothing() throws Exception {
    // the docs' placement is dev mode's simulated clusters; here the hollow fleet is env=prod
    String docs = docsYaml(0);
    assertThat(docs).contains("selector: env=dev");
    Path fleet = file("fleet.yaml", docs.replace("selector: env=dev", "selector: env=prod"));
    CliRun dry = ok(cli("apply", "-f", fleet.toString(), "--dry-run"));
    assertThat(dry.out())
        .isEqualTo(
            "catalog/demo would change displayName: <none> -> \"Demo operators\" (dry run)\n"
                + "subscription/demo-operator would be created (dry run)\n");
    assertThat(api.get("/api/v1/subscriptions/demo-operator", ADMIN).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/catalogs/demo", ADMIN).json().getValue("displayName")).isNull();

    CliRun first = ok(cli("apply", "-f", fleet.toString()));
    assertThat(first.out())
        .isEqualTo(
            "catalog/demo changed displayName: <none> -> \"Demo operators\"\n"
                + "subscription/demo-operator created\n");
    JsonObject sub = api.get("/api/v1/subscriptions/demo-operator", ADMIN).json();
    assertThat(sub.getJsonObject("version").getString("pin")).isEqualTo("0.2.0");
    int version = sub.getInteger("resourceVersion");
    assertThat(ok(cli("apply", "-f", fleet.toString())).out())
        .isEqualTo("catalog/demo unchanged\n" + "subscription/demo-operator unchanged\n");
    assertThat(
            api.get("/api/v1/subscriptions/demo-operator", ADMIN)
                .json()
                .getInteger("resourceVersion"))
        .isEqualTo(version);

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM subscription_status WHERE "
                            + "subscription = 'demo-operator' AND installed_version = '0.2.0' AND phase = 'Succeeded'")
                    == 3);
    // the docs' roll out: the pin changed in the file, applied again (the subscription carries a
    // rolloutStrategy)
    Files.writeString(fleet, Files.readString(fleet).replace("pin: \"0.2.0\"", "pin: \"0.3.0\""));
    assertThat(ok(cli("apply", "-f", fleet.toString(), "--dry-run")).out())
        .isEqualTo(
            "catalog/demo unchanged (dry "
                + "run)\nsubscription/demo-operator would change version: {\"pin\":\"0.2.0\"} -> {\"pin\":\"0.3.0\"} (dry run)\n");
    assertThat(api.get("/api/v1/rollouts", ADMIN).items()).isEmpty();
    assertThat(ok(cli("apply", "-f", fleet.toString())).out())
        .matches(
            "catalog/demo unchanged\nsubscription/"
                + "demo-operator changed version: \\{\"pin\":\"0\\.2\\.0\"} -> \\{\"pin\":\"0\\.3\\.0\"} \\(rollout "
                + "ro-[0-9a-f-]+ started\\)\n");
    assertThat(ok(cli("apply", "-f", fleet.toString())).out())
        .isEqualTo("catalog/demo unchanged\n" + "subscription/demo-operator unchanged\n");
    // the imperative form of the same: the rollout exists
    Path rollout = file("rollout.yaml", docsYaml(1));
    assertThat(ok(cli("apply", "-f", rollout.toString(), "--dry-run")).out())
        .startsWith("rollout demo-operator -> 0.3.0 unchanged (ro-");
    // the directory: both files, nothing to do
    assertThat(ok(cli("apply", "-f", fleet.getParent().toString())).out())
        .startsWith(
            "catalog/demo unchanged\n"
                + "subscription/demo-operator unchanged\nrollout demo-operator -> 0.3.0 unchanged (ro-");
    assertThat(api.get("/api/v1/rollouts", ADMIN).items()).hasSize(1);
  }

  @Test
  @Order(5)
  void malformedYamlAndARefusedSpecAreOneLineNamingFileAndLineAndChangeNothing() throws Exception {
    Path broken =
        file(
            "broken.yml.txt",
            "kind: Subscription\nname: etcd\nspec:\n  catalog: demo\n   package: x\n");
    oneLine(cli("apply", "-f", broken.toString()), ExitCodes.USAGE, broken + ":5: malformed YAML");
    Path refused =
        file(
            "refused.txt",
            "kind: Subscription\nname: etcd-bad\nspec:\n  catalog: demo\n"
                + "  package: etcd\n  channel: alpha\n  namespace: etcd-bad\n  placement: {selector: env=prod}\n"
                + "  version: {pin: \"9.9.9\"}\n  approval: Automatic\n");
    oneLine(
        cli("apply", "-f", refused.toString()),
        ExitCodes.ERROR,
        refused + ":1: subscription/etcd-bad: ",
        "9.9.9");
    assertThat(api.get("/api/v1/subscriptions/etcd-bad", ADMIN).status()).isEqualTo(404);
  }

  @Test
  @Order(6)
  void rolloutStatusWatchesToSuccessAndDescribeShowsWavesHistoryAndStatus() {
    String id = api.get("/api/v1/rollouts", ADMIN).items().getJsonObject(0).getString("id");
    CliRun watched = ok(cli("rollout", "status", id, "--watch", "--timeout", "PT60S"));
    assertThat(watched.out())
        .contains(
            "Rollout " + id + ": demo-operator -> 0.3.0   Succeeded   3/3 succeeded, " + "0 failed")
        .contains("[####################]");
    assertThat(ok(cli("get", "rollouts", "-l", "state=Succeeded")).out()).contains(id, "3/3");
    assertThat(ok(cli("get", "rollouts", "-l", "state=Failed")).err())
        .contains("No rollouts found");
    // the newest history entries: the rollout's end, not its creation (its history has more than 10
    // entries)
    assertThat(ok(cli("describe", "rollout", id)).out())
        .contains(
            "Failed or blocked clusters:\n  <none>",
            "Events:",
            "Succeeded  by system:rollout-engine  every wave succeeded")
        .doesNotContain("  Created  ");
    CliRun subscription = ok(cli("describe", "subscription", "demo-operator"));
    assertThat(subscription.out())
        .contains(
            "Version:      pin 0.3.0",
            "by version: 0.3.0=3",
            id + " -> 0.3.0: " + "Succeeded",
            "Events:",
            "subscription.put");
    assertThat(ok(cli("get", "subscriptions", "-l", "package=olmstead-demo-operator")).out())
        .contains("0.3.0=3");
    assertThat(ok(cli("describe", "cluster", "eu-0001")).out())
        .contains(
            "Status:       connected",
            "Labels:       env=prod",
            "Upgrade readiness:",
            "Subscriptions:")
        .containsPattern(
            "\n  demo-operator +olmstead-demo-operator +0\\.3\\.0 +0\\.3\\.0 +Succeeded");
    assertThat(ok(cli("describe", "catalog", "demo")).out())
        .contains("Display name: Demo operators", "Revisions:", "catalog.put");
    oneLine(cli("describe", "subscription", "nothing-here"), ExitCodes.NOT_FOUND);
  }

  @Test
  @Order(7)
  void rolloutCommandsSteerARolloutAndStatusExitsFourOnceItIsAborted() throws Exception {
    ok(
        cli(
            "apply",
            "-f",
            file(
                    "etcd2.txt",
                    "kind: Subscription\nname: etcd2\nspec:\n  catalog: demo\n"
                        + "  package: etcd\n  channel: alpha\n  namespace: etcd2\n  placement: {selector: region=eu}\n"
                        + "  version: {pin: \"0.9.2\"}\n  approval: Automatic\n")
                .toString()));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM subscription_status WHERE "
                            + "subscription = 'etcd2' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                    == 2);
    ok(
        cli(
            "apply",
            "-f",
            file(
                    "etcd2-rollout.txt",
                    "kind: Rollout\nspec:\n  subscription: etcd2\n"
                        + "  targetVersion: \"0.9.4\"\n  strategy: {batchSize: 1, soakSeconds: 600}\n")
                .toString()));
    String id =
        api.get("/api/v1/rollouts?subscription=etcd2", ADMIN)
            .items()
            .getJsonObject(0)
            .getString("id");
    assertThat(ok(cli("rollout", "pause", id)).out()).contains("Paused");
    // a paused rollout waits for a person: status says so with its own exit code, and --watch does
    // not wait
    CliRun paused = cli("rollout", "status", id, "--watch", "--timeout", "PT10M");
    assertThat(paused.code()).as(paused.toString()).isEqualTo(ExitCodes.PAUSED);
    assertThat(paused.out()).contains("Paused");
    assertThat(paused.err()).contains("is Paused: run olmstead rollout resume " + id);
    oneLine(cli("rollout", "pause", id), ExitCodes.CONFLICT_OR_FAILED);
    assertThat(ok(cli("rollout", "resume", id)).out()).contains("Progressing");
    assertThat(ok(cli("rollout", "abort", id)).out()).contains("Aborted");
    CliRun status = cli("rollout", "status", id, "--watch");
    assertThat(status.code()).as(status.toString()).isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    assertThat(status.err()).isEqualTo("olmstead: rollout " + id + " ended Aborted\n");
    oneLine(cli("rollout", "rollback", id), ExitCodes.CONFLICT_OR_FAILED);
    oneLine(cli("rollout", "status", "ro-0123456789abc"), ExitCodes.NOT_FOUND);
    // a name the API's validator refuses: the argument and what is valid, not its pattern
    CliRun bad = cli("rollout", "status", "nope");
    oneLine(
        bad,
        ExitCodes.USAGE,
        "olmstead: the rollout ID 'nope' must be ro- followed by up to 40 hex digits or '-', "
            + "as olmstead get rollouts lists them");
    assertThat(bad.err()).doesNotContain("pattern", "^ro-");
    oneLine(
        cli("describe", "cluster", "Not_Valid"),
        ExitCodes.USAGE,
        "olmstead: the cluster NAME 'Not_Valid' must be 1-63 lower-case letters");
  }

  @Test
  @Order(8)
  void approveApprovesTheWaitingClustersBySelectorOrNameAndRefusesABundleOutsideTheChannel()
      throws Exception {
    api.json(
        "PUT",
        "/api/v1/subscriptions/manual-etcd",
        ADMIN,
        new JsonObject()
            .put("catalog", "demo")
            .put("package", "etcd")
            .put("channel", "alpha")
            .put("namespace", "manual")
            .put("placement", new JsonObject().put("selector", "fleet=manual"))
            .put("version", new JsonObject().put("follow", "channel"))
            .put("approval", "Manual"));
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) VALUES "
            + "('m-1', '{\"fleet\":\"manual\",\"zone\":\"a\",\"hypershift.olmstead.io/version\":\"4.17\"}'), "
            + "('m-2', '{\"fleet\":\"manual\",\"zone\":\"b\"}'), ('m-3', '{\"fleet\":\"manual\",\"zone\":\"b\"}')");
    for (String cluster : List.of("m-1", "m-2", "m-3")) {
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO subscription_status (subscription, cluster, "
              + "installed_bundle, phase, reason, conditions) VALUES ('manual-etcd', '"
              + cluster
              + "', "
              + "'etcdoperator.v0.9.2', 'RequiresApproval', 'RequiresApproval', '[{\"type\":\"RequiresApproval\","
              + "\"status\":\"True\",\"reason\":\"RequiresApproval\",\"message\":\"etcdoperator.v0.9.4\"}]')");
    }
    assertThat(ok(cli("approve", "manual-etcd", "etcdoperator.v0.9.4", "-l", "zone=a")).out())
        .isEqualTo("approved etcdoperator.v0.9.4 on m-1\n");
    assertThat(ok(cli("approve", "manual-etcd", "etcdoperator.v0.9.4", "--cluster", "m-2")).out())
        .isEqualTo("approved etcdoperator.v0.9.4 on m-2\n");
    assertThat(api.get("/api/v1/clusters/m-3/approvals", ADMIN).items()).isEmpty();
    assertThat(ok(cli("approve", "manual-etcd", "etcdoperator.v0.9.4", "-l", "")).out())
        .isEqualTo(
            "approved etcdoperator.v0.9.4 on m-3\nalready approved on m-1\nalready approved on m-2\n");
    oneLine(
        cli("approve", "manual-etcd", "etcdoperator.v9.9.9", "-l", ""), ExitCodes.ERROR, "/bundle");
    CliRun usage = cli("approve", "manual-etcd", "etcdoperator.v0.9.4");
    assertThat(usage.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(usage.err()).contains("Missing required argument");
  }

  @Test
  @Order(9)
  void rolloutStatusShowsEachClusterThatIsNotMovingWithTheReasonTheApiGives() {
    // the agents of m-1..m-3 still report RequiresApproval for etcdoperator.v0.9.4: approved,
    // nothing installs
    ApiClient.Response created =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put("subscription", "manual-etcd")
                .put("targetVersion", "0.9.4")
                .put("strategy", new JsonObject().put("batchSize", 3).put("preflight", "Off")));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().getString("id");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN).items().stream()
                        .filter(c -> ((JsonObject) c).getJsonObject("reason") != null)
                        .count()
                    == 3);
    String reason =
        api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN)
            .items()
            .getJsonObject(0)
            .getJsonObject("reason")
            .getString("message");
    assertThat(reason).startsWith("WaitingForApproval (bundle etcdoperator.v0.9.4");
    // the approvals a person owes are counted on the rollout, and the CLI's headline says so
    assertThat(
            api.get("/api/v1/rollouts/" + id, ADMIN)
                .json()
                .getJsonObject("counts")
                .getInteger("waitingForApproval"))
        .isEqualTo(3);
    CliRun status = ok(cli("rollout", "status", id));
    assertThat(status.out().lines().findFirst().orElseThrow()).endsWith(", 3 waiting for approval");
    assertThat(status.out())
        .containsPattern("\n  CLUSTER +WAVE +STATE +REASON\n")
        .containsPattern(
            "\n  m-1 +\\S+ +(Pending|Progressing) +WaitingForApproval \\(bundle etcdoperator\\.v0\\.9\\.4")
        .contains("m-2", "m-3", reason);
    ok(cli("rollout", "abort", id));
  }

  @Test
  @Order(9)
  void upgradeReadinessListsTheFleetAndOneCluster() throws Exception {
    CliRun fleet = ok(cli("upgrade-readiness"));
    assertThat(fleet.out().lines().findFirst().orElseThrow())
        .matches("CLUSTER +VERSION +TARGET +READINESS " + "+BLOCKED-BY");
    assertThat(fleet.out())
        .containsPattern("m-1 +4\\.17 +4\\.18 +ready")
        .containsPattern("eu-0001 .*unknown");
    assertThat(ok(cli("upgrade-readiness", "--version", "4.18")).out())
        .containsPattern("m-1 +4\\.17 +4\\.18 +ready");
    assertThat(ok(cli("upgrade-readiness", "m-1")).out())
        .containsPattern("m-1 +4\\.17 +4\\.18 +ready");
    JsonNode json = Api.JSON.readTree(ok(cli("upgrade-readiness", "-o", "json")).out());
    assertThat(json.has("ready")).isTrue();
    oneLine(cli("upgrade-readiness", "--version", "4.x"), ExitCodes.USAGE, "--version '4.x'");
  }

  @Test
  @Order(10)
  void everyOutputFormatOfGetAndDescribeAndHelpOnSubcommands() throws Exception {
    CliRun wide = ok(cli("get", "clusters", "-o", "wide", "-l", "region=us"));
    assertThat(wide.out().lines().findFirst().orElseThrow()).contains("OPENSHIFT");
    assertThat(ok(cli("get", "clusters", "-o", "name", "-l", "region=eu")).out())
        .isEqualTo("cluster/eu-0001\ncluster/eu-0002\n");
    assertThat(ok(cli("get", "subscriptions", "demo-operator", "-o", "name")).out())
        .isEqualTo("subscription/demo-operator\n");
    assertThat(ok(cli("get", "rollouts", "-o", "wide")).out().lines().findFirst().orElseThrow())
        .contains("BLOCKED", "ROLLED-BACK", "FROM");
    assertThat(ok(cli("describe", "cluster", "eu-0001", "-o", "name")).out())
        .isEqualTo("cluster/eu-0001\n");
    JsonNode described =
        Api.JSON.readTree(ok(cli("describe", "cluster", "eu-0001", "-o", "json")).out());
    assertThat(described.path("name").asText()).isEqualTo("eu-0001");
    assertThat(ok(cli("get", "--help")).out())
        .startsWith("Usage: olmstead get")
        .contains("--watch", "wide");
  }

  @Test
  @Order(11)
  void getWatchPrintsAClusterAgainWhenItChangesAndEndsAtItsTimeout() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext ctx =
        new CliContext(
            env(),
            new ByteArrayInputStream(new byte[0]),
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            Duration.ofMillis(200));
    CompletableFuture<Integer> watch =
        CompletableFuture.supplyAsync(
            () ->
                OlmsteadCli.run(
                    new String[] {
                      "get", "clusters", "-l", "region=us", "-o", "wide", "-w", "--timeout", "PT8S"
                    },
                    ctx));
    await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("us-0001"));
    assertThat(
            api.send(
                    "PATCH",
                    "/api/v1/clusters/us-0001",
                    ADMIN,
                    "application/merge-patch+json",
                    "{\"labels\":{\"tier\":\"gold\"}}".getBytes(StandardCharsets.UTF_8),
                    Map.of())
                .status())
        .isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("tier=gold"));
    assertThat(watch.get(20, TimeUnit.SECONDS)).as(err.toString()).isZero();
    List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(0)).startsWith("NAME");
    assertThat(lines).filteredOn(l -> l.startsWith("us-0001")).hasSize(2);
    assertThat(lines).filteredOn(l -> l.startsWith("NAME")).hasSize(1);
    assertThat(err.toString()).doesNotContain("polling");
  }

  @Test
  @Order(12)
  void deleteRemovesWhatTheApiCanDeleteAndSaysWhyNotForRollouts() throws Exception {
    ok(
        cli(
            "apply",
            "-f",
            file(
                    "gone.txt",
                    "kind: Subscription\nname: short-lived\nspec:\n  catalog: demo\n"
                        + "  package: etcd\n  channel: alpha\n  namespace: gone\n  placement: {selector: region=nowhere}\n"
                        + "  version: {pin: \"0.9.2\"}\n  approval: Automatic\n")
                .toString()));
    assertThat(ok(cli("delete", "subscription", "short-lived")).out())
        .isEqualTo("subscription/short-lived deleted\n");
    assertThat(api.get("/api/v1/subscriptions/short-lived", ADMIN).status()).isEqualTo(404);
    oneLine(
        cli("delete", "subscription", "short-lived"),
        ExitCodes.NOT_FOUND,
        "subscription/short-lived");
    assertThat(ok(cli("delete", "subscription", "short-lived", "--ignore-not-found")).out())
        .isEmpty();
    oneLine(cli("delete", "rollout", "ro-1"), ExitCodes.USAGE, "rollout abort");
    // a catalog in use: the server's 409 as one line
    oneLine(cli("delete", "catalog", "demo"), ExitCodes.CONFLICT_OR_FAILED, "catalog/demo");
    TestDatabase.execute(
        cp.database(), "INSERT INTO clusters (name, labels) VALUES ('to-forget', '{}')");
    assertThat(ok(cli("delete", "cluster", "to-forget")).out())
        .isEqualTo("cluster/to-forget deleted\n");
  }

  @Test
  @Order(13)
  void loginWithContextsSwitchesBetweenControlPlanesWithoutPrintingTokens() throws Exception {
    Map<String, String> noEnv =
        env(
            "OLMSTEAD_URL",
            null,
            "OLMSTEAD_TOKEN",
            null,
            "XDG_CONFIG_HOME",
            home.resolve("contexts").toString());
    ok(
        CliRun.run(
            noEnv,
            ADMIN + "\n",
            "login",
            "--context",
            "admin",
            "--url",
            cp.baseUrl(),
            "--token-stdin"));
    String viewer = api.createToken(ADMIN, "ctx-viewer", "viewer", List.of());
    ok(
        CliRun.run(
            noEnv,
            viewer + "\n",
            "login",
            "--context",
            "viewer",
            "--url",
            cp.baseUrl(),
            "--token-stdin"));
    oneLine(CliRun.run(noEnv, "", "delete", "cluster", "m-3"), ExitCodes.AUTH, "forbidden");
    ok(CliRun.run(noEnv, "", "config", "use-context", "admin"));
    CliRun list = ok(CliRun.run(noEnv, "", "config", "get-contexts"));
    assertThat(list.out())
        .containsPattern("\\* +admin")
        .contains("viewer")
        .doesNotContain(ADMIN, viewer);
    assertThat(
            ok(CliRun.run(noEnv, "", "--context", "viewer", "get", "clusters", "m-3", "-o", "name"))
                .out())
        .isEqualTo("cluster/m-3\n");
    oneLine(
        CliRun.run(noEnv, "", "--context", "viewer", "delete", "cluster", "m-3"),
        ExitCodes.AUTH,
        "forbidden");
  }

  @Test
  @Order(14)
  void afterARollbackStatusAndGetShowRolledBackWavesAsTheApiAndExitFour() throws Exception {
    ok(
        cli(
            "apply",
            "-f",
            file(
                    "etcd3.txt",
                    "kind: Subscription\nname: etcd3\nspec:\n  catalog: demo\n"
                        + "  package: etcd\n  channel: alpha\n  namespace: etcd3\n  placement: {selector: region=eu}\n"
                        + "  version: {pin: \"0.9.2\"}\n  approval: Automatic\n")
                .toString()));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM subscription_status WHERE "
                            + "subscription = 'etcd3' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                    == 2);
    ok(
        cli(
            "apply",
            "-f",
            file(
                    "etcd3-rollout.txt",
                    "kind: Rollout\nspec:\n  subscription: etcd3\n"
                        + "  targetVersion: \"0.9.4\"\n  strategy: {batchSize: 1, soakSeconds: 600}\n")
                .toString()));
    String id =
        api.get("/api/v1/rollouts?subscription=etcd3", ADMIN)
            .items()
            .getJsonObject(0)
            .getString("id");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api.get("/api/v1/rollouts/" + id, ADMIN)
                    .json()
                    .getJsonArray("waves")
                    .getJsonObject(0)
                    .getString("state")
                    .equals("Soaking"));
    ok(cli("rollout", "rollback", id));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api.get("/api/v1/rollouts/" + id, ADMIN)
                    .json()
                    .getString("state")
                    .equals("RolledBack"));
    CliRun status = cli("rollout", "status", id);
    assertThat(status.code()).as(status.toString()).isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    List<String> waves =
        status.out().lines().filter(l -> l.startsWith("  ") && l.contains("[")).toList();
    assertThat(waves).isNotEmpty();
    assertThat(waves.get(0)).endsWith("RolledBack");
    assertThat(waves)
        .noneMatch(l -> l.endsWith("Soaking") || l.endsWith("Open") || l.endsWith("Succeeded"));
    assertThat(status.err()).isEqualTo("olmstead: rollout " + id + " ended RolledBack\n");
    assertThat(ok(cli("get", "rollout", id)).out())
        .containsPattern("RolledBack .*\\(RolledBack\\)");
  }
}
