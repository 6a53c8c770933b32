package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MirrorRulesTest {

  @TempDir Path tmp;

  @Test
  void theLongestMatchingSourceWinsAndTheSourceComesLast() {
    MirrorRules rules =
        new MirrorRules(
            List.of(
                new MirrorRules.Rule("quay.io", List.of("m1:5000/quay")),
                new MirrorRules.Rule("quay.io/operatorhubio", List.of("m2:5000/ohio", "m3/ohio"))));
    assertThat(rules.candidates("quay.io/operatorhubio/etcd@sha256:ab"))
        .containsExactly(
            "m2:5000/ohio/etcd@sha256:ab",
            "m3/ohio/etcd@sha256:ab",
            "quay.io/operatorhubio/etcd@sha256:ab");
    assertThat(rules.candidates("quay.io/other/x:1"))
        .containsExactly("m1:5000/quay/other/x:1", "quay.io/other/x:1");
  }

  @Test
  void aSourceMatchesWholePathSegmentsOnly() {
    MirrorRules rules =
        new MirrorRules(List.of(new MirrorRules.Rule("quay.io/org", List.of("m/org"))));
    assertThat(rules.candidates("quay.io/organisation/x:1"))
        .containsExactly("quay.io/organisation/x:1");
  }

  @Test
  void readsAnImageDigestMirrorSet() throws Exception {
    Path f = tmp.resolve("idms.yaml");
    Files.writeString(
        f,
        "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nspec:\n"
            + "  imageDigestMirrors:\n  - source: registry.redhat.io\n    mirrors: [mirror.lab:5000/rh]\n");
    assertThat(MirrorRules.read("X", f).candidates("registry.redhat.io/a/b:1"))
        .containsExactly("mirror.lab:5000/rh/a/b:1", "registry.redhat.io/a/b:1");
  }

  @Test
  void aMirrorsFileWithoutMirrorsStopsTheStartNamingTheSetting() throws Exception {
    Path f = tmp.resolve("bad.yaml");
    Files.writeString(f, "imageDigestMirrors:\n- source: quay.io\n");
    assertThatThrownBy(
            () ->
                RegistrySettings.fromEnvironment(
                    Map.of(RegistrySettings.MIRRORS_FILE, f.toString()), List.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(RegistrySettings.MIRRORS_FILE)
        .hasMessageContaining("imageDigestMirrors[0]");
  }

  @Test
  void settingsAreValidatedAtStart() {
    assertThatThrownBy(
            () ->
                RegistrySettings.fromEnvironment(
                    Map.of(RegistrySettings.INSECURE, "ok:5000,bad host"), List.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(RegistrySettings.INSECURE);
    assertThatThrownBy(() -> RegistrySettings.fromEnvironment(Map.of(), List.of("a b")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("--insecure-registry");
    assertThatThrownBy(
            () ->
                RegistrySettings.fromEnvironment(
                    Map.of(RegistrySettings.AUTH_FILE, "/no/such/file"), List.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(RegistrySettings.AUTH_FILE);
    RegistrySettings s =
        RegistrySettings.fromEnvironment(
            Map.of(RegistrySettings.INSECURE, "a:5000, b"), List.of("c:1"));
    assertThat(s.insecureHosts()).containsExactlyInAnyOrder("a:5000", "b", "c:1");
  }
}
