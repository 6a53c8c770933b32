package io.olmstead.controlplane.registry;

import java.util.List;

/**
 * A resolved image: {@code digest} is the digest of what the reference names (an index or a
 * manifest, the identity catalogs pin), {@code manifestDigest} the linux/amd64 (or only) image
 * manifest chosen from it, {@code source} the reference that answered (a mirror or the original).
 */
public record ImageManifest(
    String source, String digest, String manifestDigest, Blob config, List<Blob> layers) {

  /** A content descriptor of the manifest. */
  public record Blob(String digest, long size) {}

  public ImageManifest {
    layers = List.copyOf(layers);
  }
}
