package io.olmstead.controlplane.config;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.access.RoleMapping;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Single sign-on: OIDC ID or access tokens (JWTs) accepted beside API tokens when {@code
 * OLMSTEAD_OIDC_ISSUER} is set. {@code OLMSTEAD_OIDC_AUDIENCE} (required then) must be in {@code
 * aud}; keys come from {@code OLMSTEAD_OIDC_JWKS_URL} or the issuer's discovery document; {@code
 * OLMSTEAD_OIDC_GROUPS_CLAIM} (default {@code groups}) names the claim whose values {@code
 * OLMSTEAD_OIDC_ROLE_MAP} maps to roles and teams, e.g. {@code
 * platform-admins=admin;payments-ops=operator:payments,billing}. The dashboard's "Sign in with SSO"
 * (authorization code with PKCE) uses {@code OLMSTEAD_OIDC_CLIENT_ID} (a public client; default:
 * the audience) and {@code OLMSTEAD_OIDC_SCOPES} (default {@code openid profile email}). {@code
 * OLMSTEAD_OIDC_RETRY_SECONDS} (default 15, 1-3600) is how long a failed fetch from the issuer is
 * remembered, and the least time between two fetches of its keys for unknown key ids.
 */
public record OidcSettings(
    Optional<String> issuer,
    String audience,
    Optional<String> jwksUrl,
    String groupsClaim,
    List<RoleMapping.Entry> roleMap,
    String clientId,
    String scopes,
    Duration retry) {
  public static final String ISSUER = "OLMSTEAD_OIDC_ISSUER";
  public static final String AUDIENCE = "OLMSTEAD_OIDC_AUDIENCE";
  public static final String JWKS_URL = "OLMSTEAD_OIDC_JWKS_URL";
  public static final String GROUPS_CLAIM = "OLMSTEAD_OIDC_GROUPS_CLAIM";
  public static final String ROLE_MAP = "OLMSTEAD_OIDC_ROLE_MAP";
  public static final String CLIENT_ID = "OLMSTEAD_OIDC_CLIENT_ID";
  public static final String SCOPES = "OLMSTEAD_OIDC_SCOPES";
  public static final String RETRY_SECONDS = "OLMSTEAD_OIDC_RETRY_SECONDS";
  public static final Set<String> ENVIRONMENT =
      Set.of(ISSUER, AUDIENCE, JWKS_URL, GROUPS_CLAIM, ROLE_MAP, CLIENT_ID, SCOPES, RETRY_SECONDS);
  static final Duration DEFAULT_RETRY = Duration.ofSeconds(15);

  public static OidcSettings off() {
    return new OidcSettings(
        Optional.empty(), "", Optional.empty(), "groups", List.of(), "", "", DEFAULT_RETRY);
  }

  public boolean enabled() {
    return issuer.isPresent();
  }

  public static OidcSettings fromEnvironment(Map<String, String> env) {
    Optional<String> issuer = text(env, ISSUER);
    if (issuer.isEmpty()) {
      return off();
    }
    url(ISSUER, issuer.get());
    String audience =
        text(env, AUDIENCE)
            .orElseThrow(
                () ->
                    new ConfigException(
                        AUDIENCE,
                        "is required when "
                            + ISSUER
                            + " is set (the client id tokens are issued for)"));
    Optional<String> jwks = text(env, JWKS_URL);
    jwks.ifPresent(u -> url(JWKS_URL, u));
    String claim = text(env, GROUPS_CLAIM).orElse("groups");
    List<RoleMapping.Entry> map =
        parseRoleMap(
            text(env, ROLE_MAP)
                .orElseThrow(
                    () ->
                        new ConfigException(
                            ROLE_MAP,
                            "is required when "
                                + ISSUER
                                + " is set (e.g. platform-admins=admin;payments-ops=operator:payments)")));
    String clientId = text(env, CLIENT_ID).orElse(audience);
    if (clientId.length() > 255 || !clientId.matches("[\\x21-\\x7e]+")) {
      throw new ConfigException(
          CLIENT_ID, "must be printable characters without spaces, at most 255");
    }
    String scopes = text(env, SCOPES).orElse("openid profile email");
    List<String> scopeList = List.of(scopes.split(" +"));
    // RFC 6749 scope-token characters: printable ASCII but space, '"' and '\\'
    boolean wellFormed =
        scopeList.size() <= 20
            && scopeList.stream().allMatch(x -> x.matches("[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,100}"));
    if (!scopeList.contains("openid") || !wellFormed) {
      throw new ConfigException(
          SCOPES, "must be space-separated OAuth scopes including openid, not '" + scopes + "'");
    }
    return new OidcSettings(
        issuer,
        audience,
        jwks,
        claim,
        map,
        clientId,
        String.join(" ", scopeList),
        retry(text(env, RETRY_SECONDS)));
  }

  private static Duration retry(Optional<String> text) {
    if (text.isEmpty()) {
      return DEFAULT_RETRY;
    }
    try {
      long seconds = Long.parseLong(text.get());
      if (seconds >= 1 && seconds <= 3600) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new ConfigException(
        RETRY_SECONDS, "must be whole seconds from 1 to 3600, not '" + text.get() + "'");
  }

  /**
   * What the dashboard sends after an SSO login: the ID token when its audience is ours, else the
   * access token.
   */
  public String dashboardToken() {
    return clientId.equals(audience) ? "id_token" : "access_token";
  }

  public static List<RoleMapping.Entry> parseRoleMap(String text) {
    List<RoleMapping.Entry> entries = new ArrayList<>();
    for (String part : text.split(";")) {
      if (part.isBlank()) {
        continue;
      }
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2 || kv[0].isBlank()) {
        throw new ConfigException(
            ROLE_MAP, "'" + part.trim() + "' is not group=role[:team,team...]");
      }
      String[] roleTeams = kv[1].trim().split(":", 2);
      Role role =
          Role.fromWire(roleTeams[0].trim())
              .orElseThrow(
                  () ->
                      new ConfigException(
                          ROLE_MAP,
                          "'" + roleTeams[0].trim() + "' is not a role (viewer, operator, admin)"));
      List<String> teams = new ArrayList<>();
      if (roleTeams.length == 2) {
        for (String team : roleTeams[1].split(",")) {
          if (!team.trim().matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new ConfigException(
                ROLE_MAP, "'" + team.trim() + "' is not a team name (a DNS label)");
          }
          teams.add(team.trim());
        }
      }
      entries.add(new RoleMapping.Entry(kv[0].trim(), role, List.copyOf(teams)));
    }
    if (entries.isEmpty()) {
      throw new ConfigException(ROLE_MAP, "maps no group");
    }
    return List.copyOf(entries);
  }

  private static Optional<String> text(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
  }

  private static void url(String setting, String value) {
    try {
      URI uri = URI.create(value);
      if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new ConfigException(setting, "must be an http(s) URL, not '" + value + "'");
      }
    } catch (IllegalArgumentException e) {
      throw new ConfigException(setting, "must be an http(s) URL, not '" + value + "'");
    }
  }
}
