package io.olmstead.olmcore.fbc;

/** RFC 1123 label check with Kubernetes' wording (no regex: it runs once per package). */
final class Dns1123 {

  private Dns1123() {}

  /** Null when valid, else the Kubernetes-style error list. */
  static String labelErrors(String s) {
    StringBuilder errs = new StringBuilder();
    if (s.length() > 63) {
      errs.append("must be no more than 63 characters");
    }
    if (!shapeOk(s)) {
      if (errs.length() > 0) {
        errs.append(", ");
      }
      errs.append(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
              + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
              + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }
    return errs.length() == 0 ? null : "[" + errs + "]";
  }

  private static boolean shapeOk(String s) {
    if (s.isEmpty() || !alnum(s.charAt(0)) || !alnum(s.charAt(s.length() - 1))) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!alnum(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean alnum(char c) {
    return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
  }
}
