package io.olmstead.controlplane.impact;

/**
 * How large an impact report may grow: {@code entries} per list of a diff (rules, CRDs, webhooks,
 * APIs, schema findings of one CRD), {@code clusters} listed one by one (the totals always count
 * every cluster). A cut list is followed by {@code truncated: true} and the count it had.
 */
public record ImpactLimits(int entries, int findingsPerCrd, int clusters) {
  /** What the preview uses. */
  public static final ImpactLimits DEFAULT = new ImpactLimits(200, 20, 10_000);
}
