package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Agent → control plane: the answer to the {@link PreflightRequest} {@code requestId}. {@code
 * verdict} is {@code Pass} (no findings), {@code Warn} (warnings only) or {@code Fail} (at least
 * one error).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Preflight(
    int protocol,
    String id,
    String requestId,
    String subscription,
    String version,
    String verdict,
    List<PreflightFinding> findings)
    implements AgentMessage {
  public static final String TYPE = "preflight";
  public static final String PASS = "Pass";
  public static final String WARN = "Warn";
  public static final String FAIL = "Fail";

  /**
   * At most this many findings go on the wire (the schema's bound); the rest are summarised in the
   * last one.
   */
  public static final int MAX_FINDINGS = 32;

  /** The verdict the findings imply: any error fails, warnings only warn, none passes. */
  public static String verdictOf(List<PreflightFinding> findings) {
    if (findings.stream().anyMatch(f -> PreflightFinding.ERROR.equals(f.severity()))) {
      return FAIL;
    }
    return findings.isEmpty() ? PASS : WARN;
  }
}
