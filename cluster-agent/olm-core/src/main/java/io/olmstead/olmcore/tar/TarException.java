package io.olmstead.olmcore.tar;

/** A tar stream is refused: the message names the layer, the entry or the limit it broke. */
public final class TarException extends Exception {

  public TarException(String message) {
    super(message);
  }

  public TarException(String message, Throwable cause) {
    super(message, cause);
  }
}
