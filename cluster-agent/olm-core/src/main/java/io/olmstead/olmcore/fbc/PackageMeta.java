package io.olmstead.olmcore.fbc;

/** An {@code olm.package} blob; {@code icon} is null when the package has none. */
public record PackageMeta(String name, String defaultChannel, String description, Icon icon) {

  /** A package without an icon. */
  public PackageMeta(String name, String defaultChannel, String description) {
    this(name, defaultChannel, description, null);
  }
}
