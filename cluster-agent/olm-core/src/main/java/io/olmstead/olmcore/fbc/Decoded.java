package io.olmstead.olmcore.fbc;

/**
 * A property value decoded into its typed form, or the reason it could not be (exactly one is
 * non-null).
 */
record Decoded<T>(T value, String error) {

  static <T> Decoded<T> ok(T value) {
    return new Decoded<>(value, null);
  }

  static <T> Decoded<T> error(String error) {
    return new Decoded<>(null, error);
  }
}
