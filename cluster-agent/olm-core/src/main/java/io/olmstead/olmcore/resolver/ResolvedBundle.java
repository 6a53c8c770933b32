package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;

/**
 * A bundle the resolution says to install: where it comes from, and whether it replaces an
 * installed bundle.
 */
public record ResolvedBundle(String catalog, String channel, Bundle bundle, boolean isUpdate) {}
