package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApplyDocumentsTest {
  private static CliException failure(String text) {
    try {
      ApplyDocuments.parse("fleet.yaml", text);
    } catch (CliException e) {
      return e;
    }
    throw new AssertionError("no failure for:\n" + text);
  }

  @Test
  void readsEveryDocumentOfAFileWithItsLine() {
    List<ApplyDocuments.Doc> docs =
        ApplyDocuments.parse(
            "fleet.yaml",
            """
        kind: Catalog
        name: demo
        spec: {displayName: Demo}
        ---
        ---
        kind: Rollout
        spec:
          subscription: etcd
          targetVersion: 0.9.4
        """);
    assertThat(docs).extracting(ApplyDocuments.Doc::kind).containsExactly("Catalog", "Rollout");
    assertThat(docs).extracting(ApplyDocuments.Doc::line).containsExactly(1, 6);
    assertThat(docs.get(0).spec().path("displayName").asText()).isEqualTo("Demo");
    assertThat(docs.get(1).label()).isEqualTo("rollout etcd -> 0.9.4");
    // versions stay text (the YAML writes 0.9.4, not a number)
    assertThat(docs.get(1).spec().path("targetVersion").isTextual()).isTrue();
  }

  @Test
  void malformedYamlIsOneLineNamingTheFileAndLine() {
    CliException e =
        failure("kind: Subscription\nname: etcd\nspec:\n  catalog: demo\n   package: etcd\n");
    assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(e.getMessage()).startsWith("fleet.yaml:5: malformed YAML: ").doesNotContain("\n");
  }

  @Test
  void anUnclosedFlowMappingNamesItsLine() {
    assertThat(failure("kind: Catalog\nname: demo\nspec: {displayName: x\n").getMessage())
        .startsWith("fleet.yaml:")
        .contains("malformed YAML")
        .doesNotContain("\n");
  }

  @Test
  void unknownKindsMissingNamesOrSpecsAndExtraFieldsAreRefusedWithTheirLine() {
    assertThat(
            failure("kind: Catalog\nname: a\nspec: {}\n---\nkind: Deployment\nname: x\nspec: {}\n")
                .getMessage())
        .isEqualTo("fleet.yaml:5: unknown kind 'Deployment': use Catalog, Subscription or Rollout");
    assertThat(failure("kind: Subscription\nspec: {}\n").getMessage())
        .isEqualTo("fleet.yaml:1: Subscription without a name");
    assertThat(failure("kind: Catalog\nname: a\nspec: [1]\n").getMessage())
        .isEqualTo("fleet.yaml:1: Catalog a without a spec mapping");
    assertThat(failure("kind: Catalog\nname: a\nmetadata: {}\nspec: {}\n").getMessage())
        .contains("unknown field(s) [metadata]");
    assertThat(failure("kind: Rollout\nspec: {subscription: etcd}\n").getMessage())
        .contains("needs subscription and targetVersion");
    assertThat(failure("- a\n- b\n").getMessage())
        .isEqualTo("fleet.yaml:1: a document must be a mapping with kind, " + "name and spec");
  }

  @Test
  void aMissingFileIsAUsageError() {
    assertThatThrownBy(() -> ApplyDocuments.files(java.nio.file.Path.of("/nonexistent/fleet.yaml")))
        .isInstanceOf(CliException.class)
        .hasMessage("/nonexistent/fleet.yaml: no such file or directory");
  }
}
