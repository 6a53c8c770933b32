package io.olmstead.olmcore.fbc;

/**
 * One validation finding; packageName/channel/bundle are null where they do not apply; {@code
 * field} is a path into the catalog (e.g. {@code
 * bundles[etcdoperator.v0.9.4].csv.spec.webhookdefinitions[2].deploymentName}) or null.
 */
public record ValidationIssue(
    String packageName, String channel, String bundle, String field, String message) {

  /** A finding without a field path. */
  public ValidationIssue(String packageName, String channel, String bundle, String message) {
    this(packageName, channel, bundle, null, message);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (packageName != null) {
      sb.append("package \"").append(packageName).append("\" ");
    }
    if (channel != null) {
      sb.append("channel \"").append(channel).append("\" ");
    }
    if (bundle != null) {
      sb.append("bundle \"").append(bundle).append("\" ");
    }
    if (field != null) {
      sb.append(field).append(' ');
    }
    return sb.append(sb.length() > 0 ? ": " : "").append(message).toString();
  }
}
