package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.bundle.BundleUnpacker;
import io.olmstead.olmcore.bundle.ImageFiles;
import io.olmstead.olmcore.tar.TarLimits;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}; meant for {@code -DargLine=-Xmx512m}, the
 * control plane's heap in its 2 GiB container): the largest bundle and catalog images the default
 * limits allow, read at once by as many threads as the registry pools have (4 bundle workers, 2
 * catalog pollers), each also building its stored form (the gzip of the objects, the catalog's
 * tar.gz). All must complete; the heap after each GC (young ones included, so old garbage not yet
 * collected counts too: an upper bound) is printed.
 */
class ImageLimitsHeapBenchIT {
  static final int ROUNDS = 3;

  @Test
  void theLargestImagesTheLimitsAllowFitInAShareOfTheHeapSeveralAtOnce() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    Path dir = Files.createTempDirectory("olmstead-heap-bench");
    TarLimits bundle = TarLimits.bundleImage();
    TarLimits catalog = TarLimits.catalogImage();
    Path bundleLayer = layer(dir.resolve("bundle"), "manifests/", bundle);
    Path catalogLayer = layer(dir.resolve("catalog"), "configs/", catalog);
    AtomicLong peak = new AtomicLong();
    NotificationListener listener =
        (n, h) -> {
          var info =
              GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
          long live =
              info.getMemoryUsageAfterGc().entrySet().stream()
                  .filter(
                      e ->
                          !e.getKey().contains("Metaspace")
                              && !e.getKey().contains("Code")
                              && !e.getKey().contains("Class"))
                  .mapToLong(e -> e.getValue().getUsed())
                  .sum();
          peak.accumulateAndGet(live, Math::max);
        };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
    BundleUnpacker unpacker = new BundleUnpacker(BundleLimits.defaults());
    List<Callable<Long>> work = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      work.add(
          () -> {
            long n = 0;
            for (int r = 0; r < ROUNDS; r++) {
              try (InputStream in = Files.newInputStream(bundleLayer)) {
                n += BundlePull.encode(unpacker.unpack("bench", List.of(in))).objectsGz().length;
              }
            }
            return n;
          });
    }
    for (int i = 0; i < 2; i++) {
      work.add(
          () -> {
            long n = 0;
            for (int r = 0; r < ROUNDS; r++) {
              try (InputStream in = Files.newInputStream(catalogLayer)) {
                n +=
                    CatalogImagePull.tarGz(ImageFiles.directory(List.of(in), catalog, "/configs"))
                        .length;
              }
            }
            return n;
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(work.size());
    // what is live, not what garbage waits for an old-generation collection: a full GC every 250 ms
    // while the work
    // runs, the heap read right after it
    AtomicLong livePeak = new AtomicLong();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleWithFixedDelay(
        () -> {
          System.gc();
          livePeak.accumulateAndGet(
              ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
        },
        250,
        250,
        TimeUnit.MILLISECONDS);
    long t0 = System.nanoTime();
    try {
      for (Future<Long> f : pool.invokeAll(work)) {
        assertThat(f.get()).isPositive();
      }
    } finally {
      pool.shutdownNow();
      sampler.shutdownNow();
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    System.out.printf(
        "BENCH image limits: 4 bundle images of %d MiB kept and 2 catalog images of %d MiB kept, "
            + "%d rounds each at once, %d ms; heap after any GC at most %d MiB of %d MiB (%.0f%%); live heap sampled by "
            + "a full GC every 250 ms at most %d MiB (%.0f%%)%n",
        bundle.maxKeptBytes() >> 20,
        catalog.maxKeptBytes() >> 20,
        ROUNDS,
        ms,
        peak.get() >> 20,
        heap.getMax() >> 20,
        100.0 * peak.get() / heap.getMax(),
        livePeak.get() >> 20,
        100.0 * livePeak.get() / heap.getMax());
  }

  /**
   * A gzip layer under {@code dir} of JSON files of 1 MiB (random text) filling the kept bytes
   * limit.
   */
  static Path layer(Path file, String dir, TarLimits limits) throws IOException {
    Random random = new Random(1);
    int files = (int) (limits.maxKeptBytes() >> 20) - 1;
    try (TarArchiveOutputStream tar =
        new TarArchiveOutputStream(new GZIPOutputStream(Files.newOutputStream(file)))) {
      for (int i = 0; i < files; i++) {
        StringBuilder json =
            new StringBuilder("{\"kind\":\"ConfigMap\",\"schema\":\"olm.bench\",\"data\":{");
        for (int k = 0; json.length() < (1 << 20) - 2_000; k++) {
          json.append(k == 0 ? "" : ",")
              .append("\"k")
              .append(k)
              .append("\":\"")
              .append(Long.toHexString(random.nextLong()).repeat(8))
              .append('"');
        }
        byte[] bytes = json.append("}}").toString().getBytes();
        TarArchiveEntry e = new TarArchiveEntry(dir + i + ".json");
        e.setSize(bytes.length);
        tar.putArchiveEntry(e);
        tar.write(bytes);
        tar.closeArchiveEntry();
      }
    }
    return file;
  }
}
