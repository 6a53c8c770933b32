package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Catalog;

/**
 * A named catalog the resolver may draw bundles from; a higher priority is preferred for
 * dependencies.
 */
public record CatalogSource(String name, int priority, Catalog catalog) {}
