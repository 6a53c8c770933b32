package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodStartCheckTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode deployment(String podSpec) throws Exception {
    return JSON.readTree("{\"spec\":{\"template\":{\"spec\":" + podSpec.replace('\'', '"') + "}}}");
  }

  private static PodStartCheck.Lookup having(Map<String, String> objects) {
    return (kind, name) ->
        Optional.ofNullable(objects.get(kind + "/" + name))
            .map(
                text -> {
                  try {
                    return JSON.readTree(text.replace('\'', '"'));
                  } catch (Exception e) {
                    throw new IllegalArgumentException(e);
                  }
                });
  }

  @Test
  void aMissingServiceAccountIsNamedButDefaultAlwaysExists() throws Exception {
    assertThat(
            PodStartCheck.missing(
                deployment("{'serviceAccountName':'op','containers':[]}"), having(Map.of())))
        .hasValueSatisfying(m -> assertThat(m).contains("serviceaccount \"op\" not found"));
    assertThat(
            PodStartCheck.missing(
                deployment("{'serviceAccountName':'default','containers':[]}"), having(Map.of())))
        .isEmpty();
  }

  @Test
  void aVolumeNoContainerMountsIsIgnoredAsTheKubeletIgnoresIt() throws Exception {
    JsonNode d =
        deployment(
            "{'volumes':[{'name':'cert','secret':{'secretName':'gone'}}],"
                + "'containers':[{'name':'m','volumeMounts':[{'name':'other','mountPath':'/x'}]}]}");

    assertThat(PodStartCheck.missing(d, having(Map.of()))).isEmpty();
  }

  @Test
  void mountedSecretsAndConfigMapsIncludingProjectedOnesMustExistUnlessOptional() throws Exception {
    JsonNode d =
        deployment(
            "{'volumes':[{'name':'a','configMap':{'name':'cfg'}},"
                + "{'name':'b','projected':{'sources':[{'secret':{'name':'proj'}}]}},"
                + "{'name':'c','secret':{'secretName':'maybe','optional':true}}],"
                + "'containers':[{'name':'m','volumeMounts':[{'name':'a','mountPath':'/a'},{'name':'b','mountPath':'/b'},"
                + "{'name':'c','mountPath':'/c'}]}]}");

    assertThat(PodStartCheck.missing(d, having(Map.of())))
        .hasValueSatisfying(m -> assertThat(m).contains("configmap \"cfg\""));
    assertThat(PodStartCheck.missing(d, having(Map.of("ConfigMap/cfg", "{}"))))
        .hasValueSatisfying(m -> assertThat(m).contains("secret \"proj\""));
    assertThat(PodStartCheck.missing(d, having(Map.of("ConfigMap/cfg", "{}", "Secret/proj", "{}"))))
        .isEmpty();
  }

  @Test
  void envFromAndEnvKeyReferencesMustResolveIncludingTheKey() throws Exception {
    JsonNode d =
        deployment(
            "{'initContainers':[{'name':'i','envFrom':[{'secretRef':{'name':'creds'}},"
                + "{'configMapRef':{'name':'opt','optional':true}}]}],"
                + "'containers':[{'name':'m','env':[{'name':'X','valueFrom':{'configMapKeyRef':{'name':'cfg','key':'level'}}}]}]}");

    assertThat(PodStartCheck.missing(d, having(Map.of())))
        .hasValueSatisfying(m -> assertThat(m).contains("secret \"creds\""));
    assertThat(
            PodStartCheck.missing(
                d, having(Map.of("Secret/creds", "{}", "ConfigMap/cfg", "{'data':{}}"))))
        .hasValueSatisfying(
            m -> assertThat(m).contains("couldn't find key level in configmap \"cfg\""));
    assertThat(
            PodStartCheck.missing(
                d, having(Map.of("Secret/creds", "{}", "ConfigMap/cfg", "{'data':{'level':'1'}}"))))
        .isEmpty();
  }
}
