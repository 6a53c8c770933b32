package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One message of the agent protocol: a JSON object whose {@code type} names the record and whose
 * {@code protocol} is the protocol version the sender speaks; {@code id} is an optional correlation
 * id.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = Hello.class, name = Hello.TYPE),
  @JsonSubTypes.Type(value = Welcome.class, name = Welcome.TYPE),
  @JsonSubTypes.Type(value = Desired.class, name = Desired.TYPE),
  @JsonSubTypes.Type(value = Status.class, name = Status.TYPE),
  @JsonSubTypes.Type(value = StatusAck.class, name = StatusAck.TYPE),
  @JsonSubTypes.Type(value = Ack.class, name = Ack.TYPE),
  @JsonSubTypes.Type(value = Heartbeat.class, name = Heartbeat.TYPE),
  @JsonSubTypes.Type(value = Approve.class, name = Approve.TYPE),
  @JsonSubTypes.Type(value = Inventory.class, name = Inventory.TYPE),
  @JsonSubTypes.Type(value = Preflight.class, name = Preflight.TYPE)
})
public sealed interface AgentMessage
    permits Hello,
        Welcome,
        Desired,
        Status,
        StatusAck,
        Ack,
        Heartbeat,
        Approve,
        Inventory,
        Preflight {
  int protocol();

  String id();

  /** The wire name of this message's type, e.g. {@code status}; also the bounded metric label. */
  default String type() {
    return ProtocolCodec.typeOf(this);
  }
}
