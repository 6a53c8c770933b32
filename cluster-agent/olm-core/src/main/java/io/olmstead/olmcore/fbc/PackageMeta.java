package io.olmstead.olmcore.fbc;

/** An {@code olm.package} blob (icon omitted: the catalog never needs it). */
public record PackageMeta(String name, String defaultChannel, String description) {
}
