package io.olmstead.controlplane.analysis;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/** Collects a response body up to a byte limit; past it every write fails, which ends the response's pipe. */
final class LimitedBody implements WriteStream<Buffer> {
  private final long limit;
  private final Buffer body = Buffer.buffer();
  private boolean overflow;

  LimitedBody(long limit) {
    this.limit = limit;
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
      overflow = true;
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
