package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Control plane → agent: a manual approval to install exactly {@code bundle} for {@code
 * subscription}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Approve(int protocol, String id, String subscription, String bundle)
    implements AgentMessage {
  public static final String TYPE = "approve";
}
