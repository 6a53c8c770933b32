package io.olmstead.olmcore.fbc;

/**
 * An {@code olm.package.required} property: a package name and a blang version range (kept as
 * text).
 */
public record PackageRequirement(String packageName, String versionRange) {}
