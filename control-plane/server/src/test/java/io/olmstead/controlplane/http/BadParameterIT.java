package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A path or query parameter that breaks its schema is a 400 naming the parameter and saying in
 * words what it must be, not the validator's "String does not match pattern".
 */
class BadParameterIT {
  private static final String NAME =
      "must be 1-63 lower-case letters, digits or '-', starting and ending with a letter or digit"
          + " (a DNS-1123 label)";
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(BadParameterIT.class), Map.of());
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          GET    | /api/v1/rollouts/nope       | path.id     | the path parameter id 'nope' must be ro- followed by up to 40 hex digits or '-'
          GET    | /api/v1/clusters/Not_Valid  | path.name   | the path parameter name 'Not_Valid' NAME
          DELETE | /api/v1/clusters/a%20b      | path.name   | the path parameter name 'a b' NAME
          GET    | /api/v1/clusters?limit=501  | query.limit | the query parameter limit '501' must be an integer from 1 to 500
          GET    | /api/v1/clusters?limit=abc  | query.limit | the query parameter limit 'abc' must be an integer from 1 to 500
          GET    | /api/v1/clusters/a%07b      | path.name   | the path parameter name 'a?b' NAME
          GET    | /api/v1/clusters?cursor=!!! | query.cursor | the query parameter cursor '!!!' must be 1-1024 letters, digits, '-' or '_'
          """)
  void aBadPatternNamesTheParameterAndSaysWhatItMustBe(
      String method, String path, String field, String detail) {
    assertDescribed(
        api.send(method, path, TestControlPlane.ADMIN_TOKEN, null, null, Map.of()),
        field,
        detail.replace("NAME", NAME));
  }

  @ParameterizedTest(name = "{0} characters")
  @CsvSource({"64", "300"})
  void aTooLongNameSaysItsLengthAndTheLimit(int length) {
    String name = "a".repeat(length);
    assertDescribed(
        api.get("/api/v1/clusters/" + name, TestControlPlane.ADMIN_TOKEN),
        "path.name",
        "the path parameter name '"
            + (length > 80 ? "a".repeat(77) + "..." : name)
            + "' ("
            + length
            + " characters) "
            + NAME);
  }

  private static void assertDescribed(Response response, String field, String detail) {
    assertThat(response.status()).as(response.body()).isEqualTo(400);
    assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    assertThat(response.code()).isEqualTo("bad-request");
    assertThat(response.json().getString("detail")).isEqualTo(detail);
    JsonObject error = response.json().getJsonArray("errors").getJsonObject(0);
    assertThat(error.getString("field")).isEqualTo(field);
    assertThat(detail).endsWith(error.getString("message"));
    assertThat(error.getString("message")).startsWith("must be ");
  }
}
