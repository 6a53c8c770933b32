package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpServerRequest;

/**
 * Streams a (paused) request body into a temporary file without holding it in memory, honouring
 * back-pressure and a size limit: over the limit it stops reading, deletes the file and fails with
 * 413.
 */
final class BodySpool {
  private BodySpool() {}

  /** The path of a temporary file holding the whole body; the caller deletes it. */
  static Future<String> spool(Vertx vertx, HttpServerRequest request, long limit) {
    return vertx
        .fileSystem()
        .createTempFile("olmstead-catalog-", ".upload")
        .compose(
            path ->
                vertx
                    .fileSystem()
                    .open(path, new OpenOptions().setWrite(true).setTruncateExisting(true))
                    .compose(
                        file -> copy(request, file, limit).eventually(() -> file.close()).map(path))
                    .recover(
                        e ->
                            vertx
                                .fileSystem()
                                .delete(path)
                                .transform(v -> Future.<String>failedFuture(e))));
  }

  private static Future<Void> copy(HttpServerRequest request, AsyncFile file, long limit) {
    Promise<Void> done = Promise.promise();
    long[] received = {0};
    request.handler(
        chunk -> {
          if (done.future().isComplete()) {
            return;
          }
          received[0] += chunk.length();
          if (received[0] > limit) {
            request.pause();
            done.tryFail(ApiException.bodyTooLarge(limit));
            return;
          }
          file.write(chunk);
          if (file.writeQueueFull()) {
            request.pause();
            file.drainHandler(v -> request.resume());
          }
        });
    request.exceptionHandler(done::tryFail);
    file.exceptionHandler(done::tryFail);
    request.endHandler(v -> done.tryComplete());
    if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
      // curl asks before sending large bodies; answering saves it a one-second wait
      request.response().writeContinue();
    }
    request.resume();
    return done.future();
  }
}
