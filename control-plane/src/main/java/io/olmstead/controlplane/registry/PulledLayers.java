package io.olmstead.controlplane.registry;

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
 * An image's layers streamed to temporary files (each digest-verified and bounded), opened in manifest order for
 * olm-core to read; closing deletes them. Heap never holds a whole layer.
 */
final class PulledLayers implements AutoCloseable {
  private final Path dir;
  private final List<InputStream> streams = new ArrayList<>();

  private PulledLayers(Path dir) {
    this.dir = dir;
  }

  static PulledLayers fetch(OciPuller puller, ImageManifest image, long maxLayerBytes) throws RegistryException {
    PulledLayers layers;
    try {
      layers = new PulledLayers(Files.createTempDirectory("olmstead-layers"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      for (int i = 0; i < image.layers().size(); i++) {
        Path file = layers.dir.resolve("layer-" + i);
        puller.fetchBlob(image, image.layers().get(i), maxLayerBytes, file);
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
