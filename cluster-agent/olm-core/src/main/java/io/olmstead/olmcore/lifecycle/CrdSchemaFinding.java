package io.olmstead.olmcore.lifecycle;

/**
 * One change between an installed CRD and its replacement that can break existing custom resources
 * or clients.
 *
 * @param id a stable name of the rule, e.g. {@code RequiredFieldAdded}
 * @param severity {@link Severity#BREAKING} when existing objects or writers may be rejected or
 *     lose data
 * @param path where: {@code spec.scope}, {@code spec.versions[v1]} or {@code v1:.spec.size} inside
 *     a version's schema ({@code [*]} for array items, {@code {*}} for map values)
 * @param message a sentence for people
 */
public record CrdSchemaFinding(String id, Severity severity, String path, String message) {

  /** How bad a finding is; {@code Strict} blocks on {@code BREAKING}, {@code Warn} only reports. */
  public enum Severity {
    BREAKING,
    WARNING
  }
}
