package io.olmstead.controlplane.access;

import java.util.Locale;
import java.util.Optional;

/** What an API token may do; each role includes the ones before it. */
public enum Role {
  VIEWER,
  OPERATOR,
  ADMIN;

  public boolean includes(Role required) {
    return ordinal() >= required.ordinal();
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Role> fromWire(String value) {
    if (value == null) {
      return Optional.empty();
    }
    for (Role role : values()) {
      if (role.wireName().equals(value)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }
}
