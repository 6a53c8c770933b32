package io.olmstead.controlplane.cli.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;

/**
 * Runs {@code refresh} whenever the API's event stream ({@code GET /events}) names an object of the
 * watched kind, at least every {@link #RESYNC} (events carry ids only, and a missed one must not
 * hide a change), until {@code deadline}. When the stream cannot be opened or ends early it says so
 * once on stderr and polls every {@link CliContext#pollInterval()} instead.
 */
final class EventWatch {
  static final Duration RESYNC = Duration.ofSeconds(30);
  private static final String EVENT = "event";
  private static final String END = "end";

  private EventWatch() {}

  static void follow(
      CliContext ctx, Api api, Kind kind, String name, Instant deadline, Runnable refresh) {
    follow(ctx, api, (type, id) -> relevant(kind, name, type, id), deadline, refresh);
  }

  /** As above, refreshing on the events {@code relevant} (of their type and id) accepts. */
  static void follow(
      CliContext ctx,
      Api api,
      BiPredicate<String, String> relevant,
      Instant deadline,
      Runnable refresh) {
    BlockingQueue<String> signals = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> read(api, relevant, deadline, signals), "olmstead-cli-events");
    reader.setDaemon(true);
    reader.start();
    boolean streaming = true;
    while (true) {
      Duration left = Duration.between(Instant.now(), deadline);
      if (left.isNegative() || left.isZero()) {
        return;
      }
      Duration wait = streaming ? RESYNC : ctx.pollInterval();
      String signal;
      try {
        signal = signals.poll(Math.min(left.toMillis(), wait.toMillis()), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (!Instant.now().isBefore(deadline)) {
        return;
      }
      if (signal != null && !signal.equals(EVENT)) {
        if (streaming) {
          ctx.err()
              .println(
                  "olmstead: "
                      + (signal.equals(END) ? "the event stream ended" : signal)
                      + "; polling every "
                      + ctx.pollInterval().toMillis()
                      + " ms instead");
          ctx.err().flush();
        }
        streaming = false;
      }
      signals.drainTo(new ArrayList<>());
      refresh.run();
    }
  }

  private static void read(
      Api api,
      BiPredicate<String, String> relevant,
      Instant deadline,
      BlockingQueue<String> signals) {
    try (InputStream in = api.stream("/events?follow=true", deadline);
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String type = null;
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith("event:")) {
          type = line.substring(6).strip();
        } else if (line.startsWith("data:") && type != null) {
          if (relevant.test(type, Api.JSON.readTree(line.substring(5)).path("id").asText())) {
            signals.offer(EVENT);
          }
        } else if (line.isEmpty()) {
          type = null;
        }
      }
      signals.offer(END);
    } catch (CliException e) {
      signals.offer("cannot follow the event stream (" + e.getMessage() + ")");
    } catch (IOException e) {
      // closed at the deadline, or the connection broke
      signals.offer(END);
    }
  }

  /**
   * True when an event of {@code type} may change the fleet matrix: a cluster (its connection,
   * labels, or an agent's report), a subscription, a rollout, or a rollout holding or failing a
   * cluster. Pure.
   */
  static boolean changesTheMatrix(String type) {
    return type.equals("cluster") || type.startsWith("subscription") || type.startsWith("rollout");
  }

  /**
   * True when an event of {@code type} about {@code id} may change what {@code get} shows. Pure.
   */
  static boolean relevant(Kind kind, String name, String type, String id) {
    boolean kindMatches =
        switch (kind) {
          case clusters -> type.equals("cluster");
          // a subscription's rows count its clusters' reports, announced as cluster events
          case subscriptions -> type.startsWith("subscription") || type.equals("cluster");
          case rollouts -> type.equals("rollout");
          case catalogs -> type.equals("catalog");
        };
    return kindMatches
        && (name == null
            || kind == Kind.subscriptions && type.equals("cluster")
            || name.equals(id));
  }
}
