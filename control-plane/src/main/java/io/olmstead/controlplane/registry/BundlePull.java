package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import io.olmstead.olmcore.bundle.BundleUnpacker;
import io.olmstead.olmcore.bundle.UnpackedBundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/**
 * Pulls one bundle image and unpacks it (blocking; runs on a registry worker): layers are streamed to temporary
 * files (digest-checked, bounded), then read in order by olm-core's {@link BundleUnpacker}. Heap holds the kept
 * manifests only, never a whole layer.
 */
final class BundlePull {

  /** The stored form: gzip of {@code {"objects":[{"data":…}],"annotations":{…}}}. */
  record Result(byte[] objectsGz, int count, long size) {
  }

  private final RegistrySettings settings;
  private final BundleLimits limits;
  private final BundleUnpacker unpacker;

  BundlePull(RegistrySettings settings, BundleLimits limits) {
    this.settings = settings;
    this.limits = limits;
    this.unpacker = new BundleUnpacker(limits);
  }

  Result pull(OciPuller puller, String image, String digest) throws RegistryException, BundleUnpackException {
    ImageManifest manifest = puller.resolve(image);
    if (!manifest.digest().equals(digest)) {
      throw new RegistryException(Kind.DIGEST_MISMATCH, image + " resolved to " + manifest.digest());
    }
    try (PulledLayers layers = PulledLayers.fetch(puller, manifest, settings.maxLayerBytes(), limits.tar())) {
      return encode(unpacker.unpack(image, layers.streams()));
    }
  }

  static Result encode(UnpackedBundle bundle) {
    JsonArray objects = new JsonArray();
    long size = 0;
    for (BundleObject o : bundle.objects()) {
      objects.add(new JsonObject().put("data", o.data()));
      size += o.data().length();
    }
    JsonObject doc = new JsonObject().put("objects", objects).put("annotations", new JsonObject(
        new java.util.LinkedHashMap<>(bundle.annotations())));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(doc.toBuffer().getBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Result(out.toByteArray(), objects.size(), size);
  }
}
