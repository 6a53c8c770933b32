package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An agent serving one cluster: {@code workers} threads of its own take namespaces from the queue
 * (never two passes of the same namespace at once), plus a resync timer and a preflight thread of
 * its own.
 */
final class OwnThreadsLoop implements ReconcileLoop {
  private final String cluster;
  private final int workerCount;
  private final WorkQueue queue;
  private final List<Thread> workers = new ArrayList<>();
  private final ScheduledExecutorService resync;
  private final ExecutorService preflights;
  private volatile boolean running;

  OwnThreadsLoop(String cluster, int workers) {
    this.cluster = cluster;
    this.workerCount = workers;
    this.queue = new WorkQueue("reconcile-" + cluster);
    this.resync = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "resync-" + cluster));
    this.preflights = Executors.newSingleThreadExecutor(r -> daemon(r, "preflight-" + cluster));
  }

  @Override
  public WorkQueue queue() {
    return queue;
  }

  @Override
  public synchronized void start(Consumer<String> pass, Runnable resyncTask, Duration period) {
    running = true;
    for (int i = 0; i < workerCount; i++) {
      Thread worker = daemon(() -> work(pass), "reconcile-" + cluster + "-" + i);
      workers.add(worker);
      worker.start();
    }
    long millis = period.toMillis();
    resync.scheduleAtFixedRate(resyncTask, millis, millis, TimeUnit.MILLISECONDS);
  }

  private void work(Consumer<String> pass) {
    while (running) {
      Optional<String> key;
      try {
        key = queue.take(Duration.ofSeconds(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      key.ifPresent(pass);
    }
  }

  @Override
  public Executor preflights() {
    return preflights;
  }

  @Override
  public boolean running() {
    return running;
  }

  @Override
  public synchronized void close() {
    running = false;
    preflights.shutdownNow();
    resync.shutdownNow();
    queue.close();
    workers.forEach(Thread::interrupt);
    workers.clear();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
