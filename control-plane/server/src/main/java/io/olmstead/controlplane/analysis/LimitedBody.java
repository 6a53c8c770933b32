package io.olmstead.controlplane.analysis;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/**
 * Collects a response body up to a byte limit; past it every write fails, which ends the response's
 * pipe.
 */
final class LimitedBody implements WriteStream<Buffer> {
  private final long limit;
  private Buffer body = Buffer.buffer();
  private final Runnable onOverflow;
  private boolean overflow;

  /**
   * {@code onOverflow} runs once, at the first write past the limit (the caller answers at once).
   */
  LimitedBody(long limit, Runnable onOverflow) {
    this.limit = limit;
    this.onOverflow = onOverflow;
  }

  boolean overflow() {
    return overflow;
  }

  String text() {
    return body.toString();
  }

  @Override
  public Future<Void> write(Buffer data) {
    if (overflow || body.length() + (long) data.length() > limit) {
      if (!overflow) {
        overflow = true;
        body = Buffer.buffer(); // keep nothing of it
        onOverflow.run();
      }
      return Future.failedFuture("the answer is larger than " + limit + " bytes");
    }
    body.appendBuffer(data);
    return Future.succeededFuture();
  }

  @Override
  public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
    write(data).onComplete(handler);
  }

  @Override
  public void end(Handler<AsyncResult<Void>> handler) {
    handler.handle(Future.succeededFuture());
  }

  @Override
  public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
    return this;
  }

  @Override
  public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return false;
  }

  @Override
  public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
    return this;
  }
}
