package io.olmstead.olmcore.fbc;

import java.util.Base64;

/**
 * The {@code icon} of an {@code olm.package}: kept as the catalog's base64 text, decoded only by
 * {@link #decode()} (icons are served to UIs as they are; upstream does not validate them either).
 */
public record Icon(String base64data, String mediatype) {

  /** The image bytes; fails when {@code base64data} is absent or not base64. */
  public byte[] decode() throws FbcException {
    if (base64data == null) {
      throw new FbcException("icon", 0, 0, "icon has no base64data");
    }
    try {
      return Base64.getMimeDecoder().decode(base64data);
    } catch (IllegalArgumentException e) {
      throw new FbcException("icon", 0, 0, "invalid base64 in icon: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "Icon["
        + mediatype
        + ", "
        + (base64data == null ? 0 : base64data.length())
        + " base64 chars]";
  }
}
