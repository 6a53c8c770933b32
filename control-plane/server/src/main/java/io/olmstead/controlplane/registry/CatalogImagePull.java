package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import io.olmstead.olmcore.bundle.ImageFiles;
import io.olmstead.olmcore.tar.TarLimits;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Reads the FBC directory of a catalog image (blocking; a registry worker): the directory its label
 * {@code operators.operatorframework.io.index.configs.v1} names (default {@code /configs}), as a
 * tar.gz with sorted entries and fixed times, so unchanged content has the same digest on every
 * poll.
 */
final class CatalogImagePull {
  static final String CONFIGS_LABEL = "operators.operatorframework.io.index.configs.v1";

  private final RegistrySettings settings;
  private final TarLimits limits;

  CatalogImagePull(RegistrySettings settings, TarLimits limits) {
    this.settings = settings;
    this.limits = limits;
  }

  byte[] read(OciPuller puller, ImageManifest image)
      throws RegistryException, BundleUnpackException {
    String dir = "/configs";
    if (image.config() != null) {
      JsonObject config = new JsonObject(Buffer.buffer(puller.readBlob(image, image.config())));
      JsonObject labels = config.getJsonObject("config", new JsonObject()).getJsonObject("Labels");
      if (labels != null && labels.getString(CONFIGS_LABEL) != null) {
        dir = labels.getString(CONFIGS_LABEL);
      }
    }
    try (PulledLayers layers =
        PulledLayers.fetch(puller, image, settings.maxLayerBytes(), limits)) {
      Map<String, byte[]> files = ImageFiles.directory(layers.streams(), limits, dir);
      if (files.isEmpty()) {
        throw new RegistryException(
            Kind.INVALID, image.source() + " has no file-based catalog in " + dir);
      }
      return tarGz(files);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] tarGz(Map<String, byte[]> files) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Map.Entry<String, byte[]> f : new TreeMap<>(files).entrySet()) {
        TarArchiveEntry e = new TarArchiveEntry(f.getKey());
        e.setSize(f.getValue().length);
        e.setModTime(0);
        tar.putArchiveEntry(e);
        tar.write(f.getValue());
        tar.closeArchiveEntry();
      }
    }
    return out.toByteArray();
  }
}
