package io.olmstead.olmcore.fbc;

/** STRICT rejects a catalog on any error; LENIENT drops the invalid channels/packages and keeps the rest. */
public enum ValidationMode {
    STRICT,
    LENIENT
}
