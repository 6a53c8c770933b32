package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.tar.TarLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An image's layers streamed to temporary files (each digest-verified and bounded), opened in
 * manifest order for olm-core to read; closing deletes them. Heap never holds a whole layer. While
 * they are written, every layer must start as tar or gzip of tar ({@link LayerCheck}) and all of
 * them together stay within the pull's disk budget: what the reader's {@link
 * TarLimits#maxReadBytes()} can read, plus 1/64 for compression overhead (deflate adds about 5
 * bytes per 64 KiB it cannot compress).
 */
final class PulledLayers implements AutoCloseable {
  private final Path dir;
  private final List<InputStream> streams = new ArrayList<>();

  private PulledLayers(Path dir) {
    this.dir = dir;
  }

  static PulledLayers fetch(
      OciPuller puller, ImageManifest image, long maxLayerBytes, TarLimits limits)
      throws RegistryException {
    long pullBytes = diskBudget(limits);
    long declared = image.layers().stream().mapToLong(ImageManifest.Blob::size).sum();
    if (declared > pullBytes) {
      throw new RegistryException(
          Kind.TOO_LARGE,
          image.source()
              + " declares "
              + declared
              + " bytes of layers, over the pull limit of "
              + pullBytes);
    }
    ByteBudget budget =
        new ByteBudget(
            pullBytes,
            () ->
                new LayerCheck.Refused(
                    new RegistryException(
                        Kind.TOO_LARGE,
                        "the layers of "
                            + image.source()
                            + " pass the pull limit of "
                            + pullBytes
                            + " bytes")));
    PulledLayers layers;
    try {
      layers = new PulledLayers(Files.createTempDirectory("olmstead-layers"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      for (int i = 0; i < image.layers().size(); i++) {
        Path file = layers.dir.resolve("layer-" + i);
        String name = "layer " + i + " of " + image.source();
        puller.fetchBlob(
            image,
            image.layers().get(i),
            maxLayerBytes,
            file,
            out -> new LayerCheck(new BoundedOutputStream(out, budget), name));
        layers.streams.add(Files.newInputStream(file));
      }
      return layers;
    } catch (IOException e) {
      layers.close();
      throw new UncheckedIOException(e);
    } catch (RegistryException | RuntimeException e) {
      layers.close();
      throw e;
    }
  }

  /** The bytes of layers one pull may write to disk. */
  static long diskBudget(TarLimits limits) {
    return limits.maxReadBytes() + limits.maxReadBytes() / 64;
  }

  List<InputStream> streams() {
    return streams;
  }

  @Override
  public void close() {
    for (InputStream s : streams) {
      try {
        s.close();
      } catch (IOException e) {
        // a temporary file, deleted next
      }
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: the OS cleans its temporary directory
    }
  }
}
