package io.olmstead.controlplane.registry;

import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.InvalidImageReferenceException;
import com.google.cloud.tools.jib.image.json.BuildableManifestTemplate;
import com.google.cloud.tools.jib.image.json.ManifestTemplate;
import com.google.cloud.tools.jib.image.json.OciIndexTemplate;
import com.google.cloud.tools.jib.image.json.V22ManifestListTemplate;
import com.google.cloud.tools.jib.registry.ManifestAndDigest;
import com.google.cloud.tools.jib.registry.RegistryClient;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.image.ImageReferences;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Pulls manifests and blobs from OCI/Docker v2 registries with jib-core (blocking: call it on a
 * worker thread). Tags resolve to digests, indexes to their linux/amd64 (or only) manifest, mirrors
 * are tried before the source, digests are checked on every manifest pulled by digest and on every
 * blob (jib verifies blobs while streaming). One instance serves one registry operation: {@link
 * #abort()} (the operation's deadline, see {@link RegistryPool}) closes its connections, {@link
 * #close()} releases them.
 */
public final class OciPuller implements AutoCloseable {

  private final RegistrySettings settings;
  private final RegistryHttp http;
  private final AddressGuard guard;
  private final JibClients clients;

  public OciPuller(RegistrySettings settings) {
    this.settings = settings;
    this.http = new RegistryHttp(settings);
    this.guard = new AddressGuard(settings);
    this.clients = new JibClients(settings, http);
  }

  /**
   * Closes every connection now: a read blocked on a silent registry fails at once. Any thread may
   * call it.
   */
  void abort() {
    http.abort();
  }

  @Override
  public void close() {
    http.close();
  }

  /** Resolves {@code reference} through the mirrors (first that answers wins). */
  public ImageManifest resolve(String reference) throws RegistryException {
    RegistryException last = null;
    for (String candidate : settings.mirrors().candidates(reference)) {
      try {
        return resolveAt(candidate);
      } catch (RegistryException e) {
        if (e.kind() == Kind.INVALID
            || e.kind() == Kind.TOO_LARGE
            || e.kind() == Kind.DIGEST_MISMATCH) {
          throw e; // content was served and is wrong: another mirror must not paper over it
        }
        last = e;
      }
    }
    throw last;
  }

  /**
   * Streams a blob of {@code image} into {@code target}, at most {@code maxBytes}, its digest
   * verified.
   */
  public void fetchBlob(ImageManifest image, ImageManifest.Blob blob, long maxBytes, Path target)
      throws RegistryException {
    fetchBlob(image, blob, maxBytes, target, UnaryOperator.identity());
  }

  /**
   * As {@link #fetchBlob(ImageManifest, ImageManifest.Blob, long, Path)}, written through {@code
   * checks} (a {@link LayerCheck.Refused} they throw stops the download with its error).
   */
  void fetchBlob(
      ImageManifest image,
      ImageManifest.Blob blob,
      long maxBytes,
      Path target,
      UnaryOperator<OutputStream> checks)
      throws RegistryException {
    ImageReference ref = parse(image.source());
    if (blob.size() > maxBytes) {
      throw new RegistryException(
          Kind.TOO_LARGE,
          "blob "
              + blob.digest()
              + " of "
              + image.source()
              + " is "
              + blob.size()
              + " bytes, over the limit of "
              + maxBytes);
    }
    RegistryClient client = clients.forImage(ref);
    try (OutputStream out =
        checks.apply(new BoundedOutputStream(Files.newOutputStream(target), maxBytes))) {
      client.pullBlob(DescriptorDigest.fromDigest(blob.digest()), size -> {}, n -> {}).writeTo(out);
    } catch (LayerCheck.Refused e) {
      throw e.error;
    } catch (BoundedOutputStream.LimitExceeded e) {
      throw new RegistryException(
          Kind.TOO_LARGE,
          "blob "
              + blob.digest()
              + " of "
              + image.source()
              + " exceeds the limit of "
              + maxBytes
              + " bytes");
    } catch (DigestException e) {
      throw new RegistryException(
          Kind.INVALID, "manifest of " + image.source() + " names an invalid digest");
    } catch (IOException e) {
      throw JibErrors.map(ref, "blob " + blob.digest(), e);
    }
  }

  /** Reads a small blob (an image config) into memory, bounded by the manifest limit. */
  public byte[] readBlob(ImageManifest image, ImageManifest.Blob blob) throws RegistryException {
    try {
      Path tmp = Files.createTempFile("olmstead-blob", ".json");
      try {
        fetchBlob(image, blob, settings.maxManifestBytes(), tmp);
        return Files.readAllBytes(tmp);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new RegistryException(
          Kind.UNREACHABLE, "cannot buffer blob " + blob.digest() + ": " + e.getMessage());
    }
  }

  private ImageManifest resolveAt(String reference) throws RegistryException {
    ImageReference ref = parse(reference);
    guard.check(ref.getRegistry());
    RegistryClient client = clients.forImage(ref);
    ManifestAndDigest<ManifestTemplate> top = pull(client, ref, ref.getQualifier());
    String digest = top.getDigest().toString();
    ManifestAndDigest<ManifestTemplate> image = top;
    String chosen = platformDigest(ref, top.getManifest());
    if (chosen != null) {
      image = pull(client, ref, chosen);
    }
    if (!(image.getManifest() instanceof BuildableManifestTemplate m)) {
      throw new RegistryException(
          Kind.INVALID,
          reference
              + " is not an OCI or Docker v2 image manifest"
              + " (schema 1 and nested indexes are not supported)");
    }
    if (m.getLayers().size() > settings.maxLayers()) {
      throw new RegistryException(
          Kind.TOO_LARGE,
          reference
              + " has "
              + m.getLayers().size()
              + " layers, over the limit of "
              + settings.maxLayers());
    }
    List<ImageManifest.Blob> layers = new ArrayList<>();
    for (BuildableManifestTemplate.ContentDescriptorTemplate l : m.getLayers()) {
      layers.add(new ImageManifest.Blob(l.getDigest().toString(), l.getSize()));
    }
    BuildableManifestTemplate.ContentDescriptorTemplate c = m.getContainerConfiguration();
    ImageManifest.Blob config =
        c == null ? null : new ImageManifest.Blob(c.getDigest().toString(), c.getSize());
    return new ImageManifest(reference, digest, image.getDigest().toString(), config, layers);
  }

  private ManifestAndDigest<ManifestTemplate> pull(
      RegistryClient client, ImageReference ref, String qualifier) throws RegistryException {
    ManifestAndDigest<ManifestTemplate> m;
    try {
      m = client.pullManifest(qualifier);
    } catch (IOException | com.google.cloud.tools.jib.api.RegistryException e) {
      throw JibErrors.map(ref, "manifest " + qualifier, e);
    }
    if (qualifier.startsWith("sha256:") && !m.getDigest().toString().equals(qualifier)) {
      throw new RegistryException(
          Kind.DIGEST_MISMATCH,
          "manifest "
              + qualifier
              + " of "
              + ref.getRegistry()
              + "/"
              + ref.getRepository()
              + " has digest "
              + m.getDigest());
    }
    return m;
  }

  /**
   * The digest of the linux/amd64 (or only) manifest of an index; null when {@code m} is an image
   * manifest.
   */
  private static String platformDigest(ImageReference ref, ManifestTemplate m)
      throws RegistryException {
    List<String> all;
    List<String> amd64;
    if (m instanceof OciIndexTemplate index) {
      all = index.getManifests().stream().map(d -> d.getDigest().toString()).toList();
      amd64 = index.getDigestsForPlatform("amd64", "linux");
    } else if (m instanceof V22ManifestListTemplate list) {
      all = list.getManifests().stream().map(d -> d.getDigest().toString()).toList();
      amd64 = list.getDigestsForPlatform("amd64", "linux");
    } else {
      return null;
    }
    if (!amd64.isEmpty()) {
      return amd64.get(0);
    }
    if (all.size() == 1) {
      return all.get(0);
    }
    throw new RegistryException(
        Kind.INVALID,
        ref + " is an index with " + all.size() + " manifests and none for linux/amd64");
  }

  static ImageReference parse(String reference) throws RegistryException {
    var problem = ImageReferences.problem(reference);
    if (problem.isPresent()) {
      throw new RegistryException(Kind.INVALID, problem.get());
    }
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new RegistryException(Kind.INVALID, "'" + reference + "' is not an image reference");
    }
  }
}
