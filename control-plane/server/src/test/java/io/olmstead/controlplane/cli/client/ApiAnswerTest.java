package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ApiAnswerTest {
  private static CliException failure(int status, String contentType, String body) {
    try {
      Api.answer("PUT", "/subscriptions/etcd", status, contentType, body);
    } catch (CliException e) {
      return e;
    }
    throw new AssertionError("no failure");
  }

  @Test
  void aProblemGivesItsDetailAndFieldPointersOnOneLine() {
    CliException e =
        failure(
            422,
            "application/problem+json",
            "{\"type\":\"about:blank\",\"title\":\"Unprocessable\","
                + "\"status\":422,\"code\":\"validation-failed\",\"detail\":\"the subscription is invalid\",\"errors\":["
                + "{\"field\":\"/version/pin\",\"message\":\"9.9.9 is not in channel alpha\"},"
                + "{\"field\":\"/namespace\",\"message\":\"must be a DNS label\"}]}");
    assertThat(e.getMessage())
        .isEqualTo(
            "the subscription is invalid (/version/pin: 9.9.9 is not in channel alpha; "
                + "/namespace: must be a DNS label)");
    assertThat(e.exitCode()).isEqualTo(ExitCodes.ERROR);
  }

  @Test
  void aDetailThatIsTheFieldsMessageIsNotRepeated() {
    CliException e =
        failure(
            422,
            "application/problem+json",
            "{\"status\":422,\"detail\":\"bundle x is not in "
                + "channel stable\",\"errors\":[{\"field\":\"/bundle\",\"message\":\"bundle x is not in channel stable\"}]}");
    assertThat(e.getMessage()).isEqualTo("bundle x is not in channel stable (/bundle)");
  }

  @Test
  void anUnknownHostIsNamedAsSuchNotAsARefusedConnection() {
    Api api = new Api(new CliConfig(java.net.URI.create("http://olmstead.invalid:8080"), "olm_t"));
    assertThatThrownBy(() -> api.get("/clusters"))
        .isInstanceOf(CliException.class)
        .hasMessage(
            "cannot resolve the host of http://olmstead.invalid:8080: check the URL (olmstead login --url "
                + "URL, or OLMSTEAD_URL)");
  }

  @Test
  void statusesMapToTheDocumentedExitCodes() {
    String problem = "{\"status\":0,\"detail\":\"x\"}";
    assertThat(failure(404, "application/problem+json", problem).exitCode())
        .isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(failure(409, "application/problem+json", problem).exitCode())
        .isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    assertThat(failure(412, "application/problem+json", problem).exitCode())
        .isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    assertThat(failure(403, "application/problem+json", problem).exitCode())
        .isEqualTo(ExitCodes.AUTH);
    assertThat(failure(500, "application/problem+json", problem).exitCode())
        .isEqualTo(ExitCodes.ERROR);
  }

  @Test
  void aRefusedTokenSaysToLogInAgain() {
    CliException e =
        failure(401, "application/problem+json", "{\"status\":401,\"detail\":\"unknown token\"}");
    assertThat(e.exitCode()).isEqualTo(ExitCodes.AUTH);
    assertThat(e.getMessage()).contains("token was refused").contains("run olmstead login");
  }

  @Test
  void somethingOtherThanOlmsteadIsNamedAsSuch() {
    assertThat(failure(404, "text/html", "<html>").getMessage())
        .isEqualTo(
            "PUT /subscriptions/etcd answered HTTP 404 (text/html): is the URL an Olmstead control plane "
                + "(without /api/v1)?");
    assertThatThrownBy(() -> Api.answer("GET", "/clusters", 200, "text/html", "<html>"))
        .hasMessageContaining("is the URL an Olmstead control plane?");
  }
}
