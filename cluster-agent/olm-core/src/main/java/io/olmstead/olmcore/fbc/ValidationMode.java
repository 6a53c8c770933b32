package io.olmstead.olmcore.fbc;

/**
 * STRICT rejects a catalog on any error; LENIENT keeps it, marking what is invalid unusable (see
 * CatalogValidator#validate).
 */
public enum ValidationMode {
  STRICT,
  LENIENT
}
