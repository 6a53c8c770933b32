package io.olmstead.olmcore.installplan;

import static io.olmstead.olmcore.installplan.InstallPlannerTest.ALL_MODES;
import static io.olmstead.olmcore.installplan.InstallPlannerTest.bundle;
import static io.olmstead.olmcore.installplan.InstallPlannerTest.csv;
import static io.olmstead.olmcore.installplan.InstallPlannerTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RBAC OLM's operator-group and OperatorCondition controllers write for a CSV, per install
 * mode.
 */
class OperatorGroupRbacTest {
  private final InstallPlanner planner = new InstallPlanner();

  private List<JsonNode> plan(List<String> targets) {
    ObjectNode csv = csv(ALL_MODES);
    ((ObjectNode) csv.path("spec"))
        .set(
            "customresourcedefinitions",
            json(
                """
                {'owned': [{'name': 'etcdclusters.etcd.database.coreos.com', 'version': 'v1beta2', 'kind': 'EtcdCluster'}]}
                """));
    InstallPlanResult r = planner.planManifests(bundle(csv), "operators", "og", targets, null);
    assertThat(r.succeeded()).as(r.message()).isTrue();
    return r.objects();
  }

  private static List<JsonNode> ofKind(List<JsonNode> objects, String kind) {
    return objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
  }

  private static List<String> names(List<JsonNode> objects) {
    return objects.stream()
        .map(
            o ->
                o.path("metadata").path("namespace").asText("")
                    + "/"
                    + o.path("metadata").path("name").asText())
        .toList();
  }

  private static JsonNode permissionRole(List<JsonNode> objects) {
    return ofKind(objects, "Role").stream()
        .filter(
            r ->
                r.path("metadata")
                    .path("name")
                    .asText()
                    .startsWith("demo-operator.v1.2.3-demo-sa-"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void allNamespacesLiftsPermissionsToAClusterRoleOfTheSameNameThatAlsoReadsNamespaces() {
    List<JsonNode> objects = plan(List.of(""));
    JsonNode role = permissionRole(objects);
    String name = role.path("metadata").path("name").asText();

    JsonNode lifted =
        ofKind(objects, "ClusterRole").stream()
            .filter(c -> c.path("metadata").path("name").asText().equals(name))
            .findFirst()
            .orElseThrow();
    JsonNode liftedBinding =
        ofKind(objects, "ClusterRoleBinding").stream()
            .filter(c -> c.path("metadata").path("name").asText().equals(name))
            .findFirst()
            .orElseThrow();

    assertThat(lifted.path("metadata").has("namespace")).isFalse();
    assertThat(lifted.path("rules").get(0)).isEqualTo(role.path("rules").get(0));
    assertThat(lifted.path("rules").get(1))
        .isEqualTo(
            json(
                "{'verbs': ['get', 'list', 'watch'], 'apiGroups': [''], 'resources': ['namespaces']}"));
    assertThat(liftedBinding.path("roleRef"))
        .isEqualTo(
            json(
                "{'apiGroup': 'rbac.authorization.k8s.io', 'kind': 'ClusterRole', 'name': '"
                    + name
                    + "'}"));
    assertThat(liftedBinding.at("/subjects/0/namespace").asText()).isEqualTo("operators");
    assertThat(names(ofKind(objects, "Role"))).allMatch(n -> n.startsWith("operators/"));
  }

  @Test
  void multiNamespaceCopiesRolesAndBindingsIntoEveryTargetButTheOperatorNamespace() {
    List<JsonNode> objects = plan(List.of("team-a", "operators", "team-b"));
    String name = permissionRole(objects).path("metadata").path("name").asText();

    assertThat(names(ofKind(objects, "Role")))
        .contains("operators/" + name, "team-a/" + name, "team-b/" + name)
        .doesNotHaveDuplicates();
    assertThat(names(ofKind(objects, "RoleBinding")))
        .contains("operators/" + name, "team-a/" + name, "team-b/" + name);
    JsonNode copy =
        ofKind(objects, "RoleBinding").stream()
            .filter(b -> b.at("/metadata/namespace").asText().equals("team-a"))
            .findFirst()
            .orElseThrow();
    assertThat(copy.at("/metadata/labels/olm.copiedFrom").asText()).isEqualTo("operators");
    assertThat(copy.at("/metadata/labels/olm.managed").asText()).isEqualTo("true");
    assertThat(copy.at("/subjects/0"))
        .isEqualTo(json("{'kind': 'ServiceAccount', 'name': 'demo-sa', 'namespace': 'operators'}"));
    assertThat(names(ofKind(objects, "ClusterRole"))).doesNotContain("/" + name);
  }

  @Test
  void ownNamespaceWritesNoTenantCopiesAndLiftsNothing() {
    List<JsonNode> objects = plan(List.of("operators"));
    String name = permissionRole(objects).path("metadata").path("name").asText();

    assertThat(names(ofKind(objects, "Role"))).allMatch(n -> n.startsWith("operators/"));
    assertThat(names(ofKind(objects, "ClusterRole"))).doesNotContain("/" + name);
  }

  @Test
  void theOperatorConditionRoleLetsTheServiceAccountsGetUpdateAndPatchTheirOwnCondition() {
    List<JsonNode> objects = plan(List.of("team-a"));

    JsonNode role =
        ofKind(objects, "Role").stream()
            .filter(r -> r.at("/metadata/name").asText().equals("demo-operator.v1.2.3"))
            .findFirst()
            .orElseThrow();
    JsonNode binding =
        ofKind(objects, "RoleBinding").stream()
            .filter(r -> r.at("/metadata/name").asText().equals("demo-operator.v1.2.3"))
            .findFirst()
            .orElseThrow();

    assertThat(role.at("/metadata/namespace").asText()).isEqualTo("operators");
    assertThat(role.path("rules"))
        .isEqualTo(
            json(
                """
                [{'verbs': ['get', 'update', 'patch'], 'apiGroups': ['operators.coreos.com'],
                  'resources': ['operatorconditions'], 'resourceNames': ['demo-operator.v1.2.3']}]"""));
    assertThat(binding.path("roleRef").path("name").asText()).isEqualTo("demo-operator.v1.2.3");
    assertThat(binding.path("subjects")).hasSize(1);
    assertThat(binding.at("/subjects/0/name").asText()).isEqualTo("demo-sa");
    assertThat(names(ofKind(objects, "Role"))).doesNotContain("team-a/demo-operator.v1.2.3");
  }

  @Test
  void eachOwnedCrdVersionGetsAdminEditViewAndCrdviewClusterRolesThatAggregate() {
    List<JsonNode> objects = plan(List.of("operators"));
    String prefix = "etcdclusters.etcd.database.coreos.com-v1beta2-";

    List<JsonNode> aggregated =
        ofKind(objects, "ClusterRole").stream()
            .filter(c -> c.at("/metadata/name").asText().startsWith(prefix))
            .toList();

    assertThat(names(aggregated))
        .containsExactly(
            "/" + prefix + "admin",
            "/" + prefix + "edit",
            "/" + prefix + "view",
            "/" + prefix + "crdview");
    assertThat(aggregated.get(0).path("rules"))
        .isEqualTo(
            json(
                "[{'verbs': ['*'], 'apiGroups': ['etcd.database.coreos.com'], 'resources': ['etcdclusters']}]"));
    assertThat(aggregated.get(1).at("/rules/0/verbs"))
        .isEqualTo(json("['create', 'update', 'patch', 'delete']"));
    assertThat(aggregated.get(2).at("/rules/0/verbs")).isEqualTo(json("['get', 'list', 'watch']"));
    assertThat(aggregated.get(3).path("rules"))
        .isEqualTo(
            json(
                """
                [{'verbs': ['get'], 'apiGroups': ['apiextensions.k8s.io'], 'resources': ['customresourcedefinitions'],
                  'resourceNames': ['etcdclusters.etcd.database.coreos.com']}]"""));
    assertThat(aggregated.get(0).at("/metadata/labels"))
        .isEqualTo(
            json(
                """
                {'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
                 'olm.opgroup.permissions/aggregate-to-c571d720f17289d3-admin': 'true', 'olm.managed': 'true'}"""));
    assertThat(
            aggregated
                .get(3)
                .at("/metadata/labels/rbac.authorization.k8s.io~1aggregate-to-view")
                .asText())
        .isEqualTo("true");
  }

  @Test
  void theAggregatedRolesAreRecognisedAndNameTheirCrdWhileTheOperatorsOwnRolesAreNot() {
    List<JsonNode> objects = plan(List.of("operators"));
    List<JsonNode> provided =
        objects.stream().filter(ProvidedApiClusterRoles::isProvidedApiRole).toList();

    assertThat(provided).hasSize(4);
    assertThat(provided)
        .allSatisfy(
            role ->
                assertThat(ProvidedApiClusterRoles.crdOf(role))
                    .contains("etcdclusters.etcd.database.coreos.com"));
    assertThat(objects.stream().filter(o -> !ProvidedApiClusterRoles.isProvidedApiRole(o)))
        .allSatisfy(o -> assertThat(ProvidedApiClusterRoles.crdOf(o)).isEmpty());
  }
}
