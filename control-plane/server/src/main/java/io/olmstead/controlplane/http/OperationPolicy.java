package io.olmstead.controlplane.http;

import io.olmstead.controlplane.access.Role;
import java.util.Optional;
import java.util.Set;

/**
 * What the gate enforces for one operation, read from the spec: the least role ({@code
 * x-olmstead-role}), the security scheme, the accepted request media types, whether the handler
 * streams the body itself ({@code x-olmstead-raw-body}), and whether it changes what every team
 * shares, so that team-scoped tokens may not call it ({@code x-olmstead-fleet-wide}).
 */
public record OperationPolicy(
    String operationId,
    String method,
    String path,
    Optional<Role> role,
    String securityScheme,
    Set<String> mediaTypes,
    boolean bodyRequired,
    boolean rawBody,
    boolean fleetWide) {

  public static final String API_TOKEN = "apiToken";

  public boolean acceptsBody() {
    return !mediaTypes.isEmpty();
  }

  /** A body the router reads (bounded) and validates against the schema. */
  public boolean jsonBody() {
    return acceptsBody() && !rawBody;
  }

  public boolean apiTokenAuth() {
    return API_TOKEN.equals(securityScheme);
  }

  public boolean mutation() {
    return !method.equals("GET") && !method.equals("HEAD");
  }
}
