package io.olmstead.controlplane.registry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import io.olmstead.olmcore.bundle.BundleUnpacker;
import io.olmstead.olmcore.bundle.UnpackedBundle;
import io.olmstead.olmcore.fbc.BundleObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Pulls one bundle image and unpacks it (blocking; runs on a registry worker): layers are streamed
 * to temporary files (digest-checked, bounded), then read in order by olm-core's {@link
 * BundleUnpacker}. Heap holds the kept manifests only, never a whole layer.
 */
final class BundlePull {

  /** The stored form: gzip of {@code {"objects":[{"data":…}],"annotations":{…}}}. */
  record Result(byte[] objectsGz, int count, long size) {}

  private static final JsonFactory JSON = new JsonFactory();

  private final RegistrySettings settings;
  private final BundleLimits limits;
  private final BundleUnpacker unpacker;

  BundlePull(RegistrySettings settings, BundleLimits limits) {
    this.settings = settings;
    this.limits = limits;
    this.unpacker = new BundleUnpacker(limits);
  }

  Result pull(OciPuller puller, String image, String digest)
      throws RegistryException, BundleUnpackException {
    ImageManifest manifest = puller.resolve(image);
    if (!manifest.digest().equals(digest)) {
      throw new RegistryException(
          Kind.DIGEST_MISMATCH, image + " resolved to " + manifest.digest());
    }
    try (PulledLayers layers =
        PulledLayers.fetch(puller, manifest, settings.maxLayerBytes(), limits.tar())) {
      return encode(unpacker.unpack(image, layers.streams()));
    }
  }

  /**
   * Streams the stored form into gzip (no whole document or base64 copy in between: heap stays near
   * the objects).
   */
  static Result encode(UnpackedBundle bundle) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long size = 0;
    try (JsonGenerator g = JSON.createGenerator(new GZIPOutputStream(out))) {
      g.writeStartObject();
      g.writeArrayFieldStart("objects");
      for (BundleObject o : bundle.objects()) {
        g.writeStartObject();
        g.writeStringField("data", o.data());
        g.writeEndObject();
        size += o.data().length();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("annotations");
      for (Map.Entry<String, String> a : bundle.annotations().entrySet()) {
        g.writeStringField(a.getKey(), a.getValue());
      }
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Result(out.toByteArray(), bundle.objects().size(), size);
  }
}
