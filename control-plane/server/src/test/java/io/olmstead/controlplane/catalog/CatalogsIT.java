package io.olmstead.controlplane.catalog;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Catalog resources and revision uploads on real PostgreSQL. */
class CatalogsIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(CatalogsIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  static void create(String name) {
    assertThat(api.putJson("/catalogs/" + name, new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
  }

  static HttpResponse<String> upload(String name, String content, String type) {
    return api.post(
        "/catalogs/" + name + "/revisions", content.getBytes(StandardCharsets.UTF_8), type);
  }

  @Test
  void putCreatesThenUpdatesUnderIfMatchAndRefusesAStaleEtag() {
    HttpResponse<String> created =
        api.putJson(
            "/catalogs/community",
            new JsonObject().put("displayName", "Community").put("priority", 5),
            Map.of());
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.headers().firstValue("ETag")).hasValue("\"1\"");
    assertThat(json(created).getString("displayName")).isEqualTo("Community");
    assertThat(json(created).getInteger("resourceVersion")).isEqualTo(1);

    HttpResponse<String> updated =
        api.putJson(
            "/catalogs/community",
            new JsonObject().put("priority", 7),
            Map.of("If-Match", "\"1\""));
    assertThat(updated.statusCode()).isEqualTo(200);
    assertThat(json(updated).getInteger("priority")).isEqualTo(7);
    assertThat(updated.headers().firstValue("ETag")).hasValue("\"2\"");

    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> stale =
        api.putJson(
            "/catalogs/community",
            new JsonObject().put("priority", 9),
            Map.of("If-Match", "\"1\""));
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(json(stale).getString("code")).isEqualTo("precondition-failed");
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);

    // RFC 9110: If-Match, even "*", is false for a resource that does not exist; a create never
    // follows it
    for (String tag : new String[] {"*", "\"1\""}) {
      HttpResponse<String> missing =
          api.putJson("/catalogs/never-created", new JsonObject(), Map.of("If-Match", tag));
      assertThat(missing.statusCode())
          .as("If-Match " + tag + " on a missing catalog")
          .isEqualTo(412);
    }
    assertThat(api.get("/catalogs/never-created").statusCode()).isEqualTo(404);
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);

    HttpResponse<String> read = api.get("/catalogs/community");
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.headers().firstValue("ETag")).hasValue("\"2\"");
    assertThat(json(read).getInteger("priority")).isEqualTo(7);
  }

  @Test
  void unknownCatalogIs404AndInvalidNameIs400() {
    assertThat(api.get("/catalogs/nope").statusCode()).isEqualTo(404);
    assertThat(api.putJson("/catalogs/Not_A_Label", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(400);
  }

  @Test
  void listIsPagedByNameWithACursor() {
    for (String n : new String[] {"page-a", "page-b", "page-c"}) {
      create(n);
    }
    JsonObject first = json(api.get("/catalogs?limit=2"));
    assertThat(first.getJsonArray("items")).hasSize(2);
    String cursor = first.getString("nextCursor");
    assertThat(cursor).isNotNull();
    JsonObject rest = json(api.get("/catalogs?limit=500&cursor=" + cursor));
    JsonArray names = new JsonArray();
    first.getJsonArray("items").forEach(o -> names.add(((JsonObject) o).getString("name")));
    rest.getJsonArray("items").forEach(o -> names.add(((JsonObject) o).getString("name")));
    assertThat(names.getList()).contains("page-a", "page-b", "page-c").doesNotHaveDuplicates();
    assertThat(names.getList()).isSorted();
    assertThat(rest.getString("nextCursor")).isNull();
  }

  @Test
  void ndjsonUploadCreatesARevisionAddressedByTheSha256OfTheBytes() {
    create("up-ndjson");
    String content = CatalogFixtures.etcdNdjson();
    HttpResponse<String> response = upload("up-ndjson", content, "application/x-ndjson");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    JsonObject revision = json(response);
    assertThat(revision.getInteger("revision")).isEqualTo(1);
    assertThat(revision.getString("digest"))
        .isEqualTo(CatalogDigest.of(content.getBytes(StandardCharsets.UTF_8)));
    assertThat(revision.getInteger("packages")).isEqualTo(1);
    assertThat(revision.getInteger("channels")).isEqualTo(2);
    assertThat(revision.getInteger("bundles")).isEqualTo(4);
    assertThat(revision.getJsonArray("warnings")).isEmpty();

    JsonObject catalog = json(api.get("/catalogs/up-ndjson"));
    assertThat(catalog.getInteger("currentRevision")).isEqualTo(1);
    assertThat(catalog.getString("currentDigest")).isEqualTo(revision.getString("digest"));
  }

  @Test
  void identicalReuploadReturnsTheCurrentRevisionWith200AndChangesNothing() {
    create("up-same");
    String content = CatalogFixtures.etcdNdjson();
    assertThat(upload("up-same", content, "application/x-ndjson").statusCode()).isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> again = upload("up-same", content, "application/x-ndjson");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(json(again).getInteger("revision")).isEqualTo(1);
    Map<String, Long> after = ApiClient.counts(cp.database());
    after.remove("audit_log(success)");
    before.remove("audit_log(success)");
    assertThat(after).isEqualTo(before);

    HttpResponse<String> changed =
        upload(
            "up-same",
            CatalogFixtures.etcdNdjson() + CatalogFixtures.redisNdjson(),
            "application/x-ndjson");
    assertThat(changed.statusCode()).isEqualTo(201);
    assertThat(json(changed).getInteger("revision")).isEqualTo(2);
    JsonArray revisions = json(api.get("/catalogs/up-same/revisions")).getJsonArray("items");
    assertThat(revisions).hasSize(2);
    assertThat(revisions.getJsonObject(0).getInteger("revision")).isEqualTo(2);
    assertThat(revisions.getJsonObject(0).getBoolean("current")).isTrue();
    assertThat(revisions.getJsonObject(1).getBoolean("current")).isFalse();
  }

  @Test
  void sameContentInTwoCatalogsIsStoredOnce() {
    create("share-a");
    create("share-b");
    String content = CatalogFixtures.redisNdjson();
    assertThat(upload("share-a", content, "application/json").statusCode()).isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());
    assertThat(upload("share-b", content, "application/json").statusCode()).isEqualTo(201);
    Map<String, Long> after = ApiClient.counts(cp.database());
    assertThat(after.get("catalog_contents")).isEqualTo(before.get("catalog_contents"));
    assertThat(after.get("catalog_revisions")).isEqualTo(before.get("catalog_revisions") + 1);
  }

  @Test
  void yamlAndTarGzUploadsAreParsedLikeJson() {
    create("up-yaml");
    HttpResponse<String> yaml = upload("up-yaml", CatalogFixtures.etcdYaml(), "application/yaml");
    assertThat(yaml.statusCode()).as(yaml.body()).isEqualTo(201);
    assertThat(json(yaml).getInteger("bundles")).isEqualTo(2);

    create("up-tar");
    byte[] tar =
        CatalogFixtures.tarGz(
            Map.of(
                "etcd/catalog.json", CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
                "redis/catalog.json",
                    CatalogFixtures.redisNdjson().getBytes(StandardCharsets.UTF_8)));
    HttpResponse<String> gz = api.post("/catalogs/up-tar/revisions", tar, "application/gzip");
    assertThat(gz.statusCode()).as(gz.body()).isEqualTo(201);
    assertThat(json(gz).getInteger("packages")).isEqualTo(2);
    assertThat(json(gz).getString("digest")).isEqualTo(CatalogDigest.of(tar));
  }

  @Test
  void invalidCatalogIs422WithEveryErrorAndStoresNothing() {
    create("up-invalid");
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> response =
        upload("up-invalid", CatalogFixtures.invalidNdjson(), "application/x-ndjson");
    assertThat(response.statusCode()).isEqualTo(422);
    JsonObject problem = json(response);
    assertThat(problem.getString("code")).isEqualTo("validation-failed");
    JsonArray errors = problem.getJsonArray("errors");
    assertThat(errors.size()).isGreaterThanOrEqualTo(2);
    assertThat(errors.stream().map(e -> ((JsonObject) e).getString("package")))
        .contains("etcd", "redis");
    assertThat(errors.stream().map(e -> ((JsonObject) e).getString("message")))
        .allSatisfy(m -> assertThat(m).isNotBlank());
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void lenientUploadKeepsTheValidPartAndReportsWarnings() {
    create("up-lenient");
    HttpResponse<String> response =
        api.post(
            "/catalogs/up-lenient/revisions?validation=lenient",
            CatalogFixtures.invalidNdjson().getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(json(response).getJsonArray("warnings")).isNotEmpty();
  }

  @Test
  void malformedJsonAndYamlAre400WithLineAndColumnAndStoreNothing() {
    create("up-malformed");
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> badJson =
        upload(
            "up-malformed",
            "{\"schema\":\"olm.package\",\"name\":\"etcd\"}\n{\"schema\": \"olm.channel\", \"name\": }\n",
            "application/x-ndjson");
    assertThat(badJson.statusCode()).isEqualTo(400);
    JsonObject error = json(badJson).getJsonArray("errors").getJsonObject(0);
    assertThat(error.getInteger("line")).isEqualTo(2);
    assertThat(error.getInteger("column")).isPositive();

    HttpResponse<String> badYaml =
        upload("up-malformed", "schema: olm.package\nname: [etcd\n", "application/yaml");
    assertThat(badYaml.statusCode()).isEqualTo(400);
    assertThat(json(badYaml).getString("detail")).contains("malformed");
    assertThat(json(badYaml).getJsonArray("errors").getJsonObject(0).getInteger("line"))
        .isPositive();

    HttpResponse<String> notGzip = upload("up-malformed", "plain text", "application/gzip");
    assertThat(notGzip.statusCode()).isEqualTo(400);
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void wrongContentTypeIs415AndUnknownCatalogIs404() {
    create("up-415");
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> response = upload("up-415", CatalogFixtures.etcdNdjson(), "text/plain");
    assertThat(response.statusCode()).isEqualTo(415);
    assertThat(json(response).getString("code")).isEqualTo("unsupported-media-type");
    assertThat(
            upload("no-such-catalog", CatalogFixtures.etcdNdjson(), "application/x-ndjson")
                .statusCode())
        .isEqualTo(404);
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void deleteRemovesTheCatalogItsRevisionsAndUnsharedContent() {
    create("del-me");
    assertThat(
            upload("del-me", CatalogFixtures.etcdYaml() + "\n# unique\n", "application/yaml")
                .statusCode())
        .isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());
    assertThat(api.delete("/catalogs/del-me", Map.of("If-Match", "\"9\"")).statusCode())
        .isEqualTo(412);
    assertThat(api.delete("/catalogs/del-me", Map.of()).statusCode()).isEqualTo(204);
    Map<String, Long> after = ApiClient.counts(cp.database());
    assertThat(after.get("catalogs")).isEqualTo(before.get("catalogs") - 1);
    assertThat(after.get("catalog_contents")).isEqualTo(before.get("catalog_contents") - 1);
    assertThat(api.get("/catalogs/del-me").statusCode()).isEqualTo(404);
    assertThat(api.delete("/catalogs/del-me", Map.of()).statusCode()).isEqualTo(404);
  }

  @Test
  void packagesShowChannelsWithHeadEntriesAndVersions() {
    create("pkgs");
    assertThat(api.get("/catalogs/pkgs/packages").statusCode()).isEqualTo(404);
    assertThat(
            upload(
                    "pkgs",
                    CatalogFixtures.etcdNdjson() + CatalogFixtures.redisNdjson(),
                    "application/x-ndjson")
                .statusCode())
        .isEqualTo(201);
    JsonObject list = json(api.get("/catalogs/pkgs/packages?limit=1"));
    assertThat(list.getJsonArray("items").getJsonObject(0).getString("name")).isEqualTo("etcd");
    JsonObject next =
        json(api.get("/catalogs/pkgs/packages?cursor=" + list.getString("nextCursor")));
    assertThat(next.getJsonArray("items").getJsonObject(0).getString("name")).isEqualTo("redis");

    JsonObject etcd = json(api.get("/catalogs/pkgs/packages/etcd"));
    assertThat(etcd.getString("defaultChannel")).isEqualTo("stable");
    assertThat(etcd.getJsonArray("versions").getList())
        .containsExactly("1.0.0", "0.9.4", "0.9.2", "0.9.0");
    JsonObject stable =
        etcd.getJsonArray("channels").stream()
            .map(JsonObject.class::cast)
            .filter(c -> c.getString("name").equals("stable"))
            .findFirst()
            .orElseThrow();
    assertThat(stable.getString("head")).isEqualTo("etcd.v0.9.4");
    assertThat(stable.getJsonArray("entries")).hasSize(3);
    JsonObject head = stable.getJsonArray("entries").getJsonObject(2);
    assertThat(head.getString("replaces")).isEqualTo("etcd.v0.9.2");
    assertThat(head.getString("skipRange")).isEqualTo(">=0.9.0 <0.9.4");
    assertThat(head.getString("version")).isEqualTo("0.9.4");
    assertThat(api.get("/catalogs/pkgs/packages/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void upgradePathTakesSingleStepsTowardTheHeadNeverPastTo() {
    create("paths");
    assertThat(upload("paths", CatalogFixtures.etcdNdjson(), "application/x-ndjson").statusCode())
        .isEqualTo(201);
    String base = "/catalogs/paths/packages/etcd/channels/stable/upgrade-path";
    JsonObject fromBundle = json(api.get(base + "?from=etcd.v0.9.0"));
    assertThat(fromBundle.getString("from")).isEqualTo("etcd.v0.9.0");
    // the head's skipRange covers 0.9.0, so OLM jumps straight to the head
    assertThat(fromBundle.getJsonArray("steps").getList()).hasSize(1);
    assertThat(fromBundle.getJsonArray("steps").getJsonObject(0).getString("bundle"))
        .isEqualTo("etcd.v0.9.4");
    assertThat(fromBundle.getJsonArray("steps").getJsonObject(0).getString("version"))
        .isEqualTo("0.9.4");

    JsonObject capped = json(api.get(base + "?from=0.9.0&to=0.9.2"));
    assertThat(capped.getString("from")).isEqualTo("etcd.v0.9.0");
    assertThat(capped.getString("to")).isEqualTo("0.9.2");
    assertThat(capped.getJsonArray("steps").getJsonObject(0).getString("bundle"))
        .isEqualTo("etcd.v0.9.2");
    assertThat(capped.getJsonArray("steps")).hasSize(1);

    JsonObject fast =
        json(api.get("/catalogs/paths/packages/etcd/channels/fast/upgrade-path?from=etcd.v0.9.4"));
    assertThat(fast.getJsonArray("steps").getJsonObject(0).getString("bundle"))
        .isEqualTo("etcd.v1.0.0");

    assertThat(api.get(base + "?from=etcd.v0.9.4").statusCode()).isEqualTo(200);
    assertThat(json(api.get(base + "?from=etcd.v0.9.4")).getJsonArray("steps")).isEmpty();
    assertThat(
            api.get("/catalogs/paths/packages/etcd/channels/beta/upgrade-path?from=x").statusCode())
        .isEqualTo(404);
    assertThat(
            api.get("/catalogs/paths/packages/nope/channels/stable/upgrade-path?from=x")
                .statusCode())
        .isEqualTo(404);
    assertThat(api.get(base + "?from=not-a-bundle").statusCode()).isEqualTo(404);
    assertThat(api.get(base + "?from=etcd.v0.9.0&to=banana").statusCode()).isEqualTo(400);
  }
}
