package io.olmstead.olmcore.fbc;

/**
 * A Kubernetes API group/version/kind, as in the {@code olm.gvk} and {@code olm.gvk.required}
 * properties.
 */
public record Gvk(String group, String version, String kind) {

  @Override
  public String toString() {
    return "group: " + group + ", version: " + version + ", kind: " + kind;
  }
}
