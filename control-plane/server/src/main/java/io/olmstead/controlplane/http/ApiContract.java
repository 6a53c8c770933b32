package io.olmstead.controlplane.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.olmstead.controlplane.access.Role;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The REST contract, api-spec's {@code openapi.yaml}, as published and as handed to vertx-openapi.
 * vertx-openapi 4.5 validates JSON bodies only, so the copy it gets is adapted: response bodies are
 * left out (not validated at runtime), raw-body operations lose their request body (the handler
 * streams it, the gate checks its content type) and {@code +json} media types are validated as
 * JSON. The router gets a copy without request bodies at all: vertx-openapi validates on one
 * ordered worker queue per event loop, so one big body would hold every other request; {@link
 * BodyValidation} validates bodies against the adapted copy instead.
 */
public final class ApiContract {
  public static final String RESOURCE = "openapi.yaml";
  public static final String ROLE_EXTENSION = "x-olmstead-role";
  public static final String RAW_BODY_EXTENSION = "x-olmstead-raw-body";
  public static final String FLEET_WIDE_EXTENSION = "x-olmstead-fleet-wide";
  private static final List<String> METHODS =
      List.of("get", "put", "post", "delete", "patch", "head", "options");

  private final JsonObject published;
  private final JsonObject adapted;
  private final String basePath;
  private final Map<String, OperationPolicy> policies;

  private ApiContract(JsonObject published) {
    this.published = published;
    this.basePath = published.getJsonArray("servers").getJsonObject(0).getString("url");
    this.adapted = published.copy();
    // vertx-openapi wants an absolute server URL; only its path matters for routing.
    adapted.put(
        "servers", new JsonArray().add(new JsonObject().put("url", "http://localhost" + basePath)));
    this.policies = new LinkedHashMap<>();
    JsonObject paths = adapted.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : METHODS) {
        JsonObject operation = item.getJsonObject(method);
        if (operation != null) {
          OperationPolicy policy = policy(basePath + path, method, operation);
          policies.put(policy.operationId(), policy);
          adapt(operation, policy);
          stripResponseContent(operation.getJsonObject("responses"));
        }
      }
    }
    JsonObject components = adapted.getJsonObject("components");
    if (components != null) {
      stripResponseContent(components.getJsonObject("responses"));
    }
  }

  /**
   * Responses are not validated at runtime, and vertx-openapi rejects problem+json and streams
   * there: drop them.
   */
  private static void stripResponseContent(JsonObject responses) {
    if (responses == null) {
      return;
    }
    for (String status : responses.fieldNames()) {
      Object response = responses.getValue(status);
      if (response instanceof JsonObject json) {
        json.remove("content");
      }
    }
  }

  /** Reads the contract packaged by api-spec. */
  public static ApiContract load() {
    try (InputStream in = ApiContract.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE + " is not on the classpath (api-spec jar missing)");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> tree = new ObjectMapper(new YAMLFactory()).readValue(in, Map.class);
      return new ApiContract(new JsonObject(tree));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** The vertx-openapi contract built from the adapted document. */
  public Future<OpenAPIContract> toOpenApi(Vertx vertx) {
    return OpenAPIContract.from(vertx, adapted.copy());
  }

  /**
   * The contract the router is built from: parameters only, no request bodies (see {@link
   * BodyValidation}).
   */
  public Future<OpenAPIContract> toRouterOpenApi(Vertx vertx) {
    JsonObject routing = adapted.copy();
    JsonObject paths = routing.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String method : METHODS) {
        JsonObject operation = paths.getJsonObject(path).getJsonObject(method);
        if (operation != null) {
          operation.remove("requestBody");
        }
      }
    }
    return OpenAPIContract.from(vertx, routing);
  }

  /** The path prefix every operation lives under ({@code /api/v1}). */
  public String basePath() {
    return basePath;
  }

  public JsonObject published() {
    return published.copy();
  }

  public Optional<OperationPolicy> policy(String operationId) {
    return Optional.ofNullable(policies.get(operationId));
  }

  public Map<String, OperationPolicy> policies() {
    return Map.copyOf(policies);
  }

  private OperationPolicy policy(String path, String method, JsonObject operation) {
    String id = operation.getString("operationId");
    if (id == null) {
      throw new IllegalStateException(method + " " + path + " has no operationId");
    }
    Optional<Role> role =
        Optional.ofNullable(operation.getString(ROLE_EXTENSION))
            .map(
                value ->
                    Role.fromWire(value)
                        .orElseThrow(
                            () ->
                                new IllegalStateException(
                                    id + ": unknown " + ROLE_EXTENSION + " " + value)));
    JsonArray security = operation.getJsonArray("security", published.getJsonArray("security"));
    String scheme =
        security == null || security.isEmpty()
            ? "none"
            : security.getJsonObject(0).fieldNames().iterator().next();
    if (scheme.equals(OperationPolicy.API_TOKEN) && role.isEmpty()) {
      throw new IllegalStateException(id + " uses API tokens but has no " + ROLE_EXTENSION);
    }
    JsonObject body = operation.getJsonObject("requestBody");
    Set<String> mediaTypes = new LinkedHashSet<>();
    if (body != null) {
      body.getJsonObject("content")
          .fieldNames()
          .forEach(type -> mediaTypes.add(type.toLowerCase(Locale.ROOT)));
    }
    return new OperationPolicy(
        id,
        method.toUpperCase(Locale.ROOT),
        path,
        role,
        scheme,
        Set.copyOf(mediaTypes),
        body != null && body.getBoolean("required", false),
        operation.getBoolean(RAW_BODY_EXTENSION, false),
        operation.getBoolean(FLEET_WIDE_EXTENSION, false));
  }

  private static void adapt(JsonObject operation, OperationPolicy policy) {
    if (policy.rawBody()) {
      operation.remove("requestBody");
      return;
    }
    JsonObject content =
        operation.getJsonObject("requestBody") == null
            ? null
            : operation.getJsonObject("requestBody").getJsonObject("content");
    if (content == null) {
      return;
    }
    for (String type : Set.copyOf(content.fieldNames())) {
      if (MediaType.isMediaTypeSupported(type)) {
        continue;
      }
      if (!type.endsWith("+json") || content.containsKey(MediaType.APPLICATION_JSON)) {
        throw new IllegalStateException(
            policy.operationId() + ": media type " + type + " needs " + RAW_BODY_EXTENSION);
      }
      content.put(MediaType.APPLICATION_JSON, content.remove(type));
    }
  }
}
