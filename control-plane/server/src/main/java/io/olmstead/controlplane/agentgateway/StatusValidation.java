package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.HashSet;
import java.util.Set;

/**
 * The checks a status report must pass before it is stored (bounded sizes, no NUL, valid names, no
 * duplicates).
 */
final class StatusValidation {
  static final int MAX_SUBSCRIPTIONS = 2000;
  private static final int MAX_TEXT = 4096;
  private static final int MAX_CONDITIONS = 32;

  private StatusValidation() {}

  /** Why the report is invalid, or null. */
  static String invalid(Status status) {
    if (status.seq() < 1) {
      return "seq must be positive";
    }
    if (status.subscriptions() == null) {
      return "subscriptions is required";
    }
    if (status.subscriptions().size() > MAX_SUBSCRIPTIONS) {
      return "more than " + MAX_SUBSCRIPTIONS + " subscriptions";
    }
    Set<String> names = new HashSet<>();
    for (SubscriptionStatus s : status.subscriptions()) {
      if (s == null || s.name() == null || !EnrollHandler.DNS_LABEL.matcher(s.name()).matches()) {
        return "a subscription name is not a DNS-1123 label";
      }
      if (!names.add(s.name())) {
        return "subscription " + s.name() + " is reported twice";
      }
      if (s.phase() == null || s.phase().length() > 64) {
        return "subscription " + s.name() + " has no phase";
      }
      if (bad(s.installedBundle())
          || bad(s.installedVersion())
          || bad(s.targetVersion())
          || bad(s.phase())
          || bad(s.reason())
          || bad(s.message())) {
        return "subscription "
            + s.name()
            + " has a field over "
            + MAX_TEXT
            + " characters or with a NUL character";
      }
      if (s.conditions() != null && s.conditions().size() > MAX_CONDITIONS) {
        return "subscription " + s.name() + " has more than " + MAX_CONDITIONS + " conditions";
      }
      if (s.conditions() != null
          && s.conditions().stream()
              .anyMatch(
                  c ->
                      c == null
                          || bad(c.type())
                          || bad(c.status())
                          || bad(c.reason())
                          || bad(c.message()))) {
        return "subscription "
            + s.name()
            + " has a condition field over "
            + MAX_TEXT
            + " characters or with a NUL character";
      }
    }
    return null;
  }

  // PostgreSQL refuses NUL in text and jsonb: one such report would fail the whole batch it is
  // written with
  private static boolean bad(String text) {
    return text != null && (text.length() > MAX_TEXT || text.indexOf('\u0000') >= 0);
  }
}
