package io.olmstead.controlplane.db;

import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Vert.x-wide handler of exceptions no handler caught: logged at ERROR, except one known and
 * harmless race of vertx-sql-client (eclipse-vertx/vertx-sql-client#1706, open; the pool code is
 * the same in 4.5.28, the newest 4.5.x on Maven Central): when the pool cannot open a connection
 * (database down), the caller gets that error, and later the pool's wait timer fails the same
 * promise again, "Result is already complete". Nothing is lost, so it is kept out of the log
 * (DEBUG).
 */
public final class UnhandledExceptions {
  private static final Logger LOG = LoggerFactory.getLogger(UnhandledExceptions.class);

  private UnhandledExceptions() {}

  public static void install(Vertx vertx) {
    vertx.exceptionHandler(UnhandledExceptions::handle);
  }

  static void handle(Throwable e) {
    if (isPoolTimerRace(e)) {
      LOG.debug(
          "vertx-sql-client#1706: pool wait timer fired after the acquisition had already failed");
    } else {
      LOG.error("unhandled exception", e);
    }
  }

  static boolean isPoolTimerRace(Throwable e) {
    if (!(e instanceof IllegalStateException)
        || !"Result is already complete".equals(e.getMessage())) {
      return false;
    }
    for (StackTraceElement frame : e.getStackTrace()) {
      if (frame.getClassName().startsWith("io.vertx.sqlclient.impl.pool.")) {
        return true;
      }
    }
    return false;
  }
}
