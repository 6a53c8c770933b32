package io.olmstead.olmcore.resolver;

/**
 * An operator already installed in the namespace: its bundle (CSV) name, package, and the catalog
 * and channel it came from. A subscription to the same package owns it; otherwise it must stay as
 * it is.
 */
public record InstalledOperator(
    String bundleName, String packageName, String catalog, String channel) {}
