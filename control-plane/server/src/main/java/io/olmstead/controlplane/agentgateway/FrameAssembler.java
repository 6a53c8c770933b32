package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketFrame;

/**
 * Reassembles one connection's text messages from their frames within the frame and message limits,
 * and decodes them against the protocol's schemas: small messages at once, big ones on the decode
 * workers (tens of milliseconds for a full report of thousands of subscriptions).
 */
final class FrameAssembler {
  /** Messages up to this size are decoded on the event loop (well under a millisecond). */
  static final int INLINE_DECODE_BYTES = 16 * 1024;

  private final int maxFrameBytes;
  private final int maxMessageBytes;
  private Buffer partial;

  FrameAssembler(int maxFrameBytes, int maxMessageBytes) {
    this.maxFrameBytes = maxFrameBytes;
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * The complete message this frame ends, or null while one is incomplete (and for control frames).
   */
  Buffer accept(WebSocketFrame frame) throws ProtocolException {
    if (!(frame.isText() || frame.isBinary() || frame.isContinuation())) {
      return null;
    }
    if (frame.isBinary()) {
      throw new ProtocolException(
          CloseReason.MALFORMED_MESSAGE, "binary frames are not part of the protocol");
    }
    Buffer data = frame.binaryData();
    if (data.length() > maxFrameBytes) {
      throw new ProtocolException(
          CloseReason.MESSAGE_TOO_BIG, "frame over " + maxFrameBytes + " bytes");
    }
    if (frame.isText()) {
      partial = frame.isFinal() ? null : Buffer.buffer();
    } else if (partial == null) {
      throw new ProtocolException(
          CloseReason.MALFORMED_MESSAGE, "continuation without a first frame");
    }
    if (partial == null) {
      return data;
    }
    if (partial.length() + data.length() > maxMessageBytes) {
      throw new ProtocolException(
          CloseReason.MESSAGE_TOO_BIG, "message over " + maxMessageBytes + " bytes");
    }
    partial.appendBuffer(data);
    if (!frame.isFinal()) {
      return null;
    }
    Buffer message = partial;
    partial = null;
    return message;
  }

  /**
   * Whether decoding {@code message} goes to the workers (the caller pauses the socket meanwhile,
   * so order holds).
   */
  static boolean big(Buffer message) {
    return message.length() > INLINE_DECODE_BYTES;
  }

  /**
   * Decodes and validates; a small message's future is already complete, a big one's completes on
   * the caller.
   */
  static Future<AgentMessage> decode(Buffer message, WorkerExecutor workers) {
    if (!big(message)) {
      try {
        return Future.succeededFuture(SchemaDecoder.decode(message.toString()));
      } catch (ProtocolException e) {
        return Future.failedFuture(e);
      }
    }
    return workers.executeBlocking(() -> SchemaDecoder.decode(message.toString()), false);
  }
}
