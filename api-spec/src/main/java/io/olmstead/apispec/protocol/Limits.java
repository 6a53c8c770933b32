package io.olmstead.apispec.protocol;

/**
 * The limits a connection is held to; exceeding one closes it with the matching {@link
 * CloseReason}.
 */
public record Limits(int maxFrameBytes, int maxMessageBytes, int messagesPerSecond, int burst) {}
