package io.olmstead.olmcore.fbc;

/** One validation finding; packageName/channel/bundle are null where they do not apply. */
public record ValidationIssue(String packageName, String channel, String bundle, String message) {

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
        return sb.append(sb.length() > 0 ? ": " : "").append(message).toString();
    }
}
