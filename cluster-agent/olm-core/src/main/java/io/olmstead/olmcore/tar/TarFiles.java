package io.olmstead.olmcore.tar;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The one tar reader (commons-compress under a budget): the files an image keeps (those {@code
 * kept} accepts) after applying its layers in order, as a container runtime would: later layers
 * overwrite, {@code .wh.NAME} deletes NAME, {@code .wh..wh..opq} empties its directory. Absolute or
 * escaping paths, links pointing outside the image and device files are refused. A link to a kept
 * file maps to the same bytes (never a copy) and spends the target's size again. One instance reads
 * one image (or archive) and holds its {@link TarLimits} budget.
 */
public final class TarFiles {

  private static final String WHITEOUT = ".wh.";
  private static final String OPAQUE = ".wh..wh..opq";

  private final TarBudget budget;
  private final Predicate<String> kept;
  private final Map<String, byte[]> files = new TreeMap<>();

  public TarFiles(TarLimits limits, Predicate<String> kept) {
    this.budget = new TarBudget(limits);
    this.kept = kept;
  }

  /** Kept files by normalised path; links share their target's array. */
  public Map<String, byte[]> files() {
    return files;
  }

  /** Applies one layer, gzip-compressed or a plain tar; closes it. */
  public void apply(int layer, InputStream raw) throws TarException {
    try (TarInput counted = new TarInput(TarFormat.open(layer, raw), budget)) {
      TarArchiveInputStream in = new TarArchiveInputStream(counted);
      TarArchiveEntry e;
      while ((e = next(in, counted)) != null) {
        budget.entry();
        entry(layer, in, e);
        in.transferTo(
            OutputStream.nullOutputStream()); // what was not kept, so only headers pass next
      }
    } catch (TarInput.Refused e) {
      throw new TarException("layer " + layer + ": " + e.getMessage(), e);
    } catch (IOException | IllegalArgumentException e) {
      throw new TarException("layer " + layer + " is not a valid tar stream: " + e.getMessage(), e);
    }
  }

  /** The next entry, its headers read under their limit. */
  private static TarArchiveEntry next(TarArchiveInputStream in, TarInput counted)
      throws IOException {
    counted.headers();
    TarArchiveEntry e = in.getNextEntry();
    counted.data();
    return e;
  }

  private void entry(int layer, TarArchiveInputStream in, TarArchiveEntry e)
      throws TarException, IOException {
    String path = TarPaths.normalise(e.getName());
    if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) {
      throw new TarException("layer " + layer + " entry " + e.getName() + " is a device file");
    }
    if (path == null || e.isDirectory()) {
      return;
    }
    String dir = TarPaths.parent(path);
    String base = path.substring(dir.isEmpty() ? 0 : dir.length() + 1);
    if (base.equals(OPAQUE)) {
      removeUnder(dir);
    } else if (base.startsWith(WHITEOUT)) {
      String target = (dir.isEmpty() ? "" : dir + "/") + base.substring(WHITEOUT.length());
      files.remove(target);
      removeUnder(target);
    } else if (e.isSymbolicLink() || e.isLink()) {
      link(layer, e, path, dir);
    } else if (e.isFile() && kept.test(path)) {
      budget.keep("layer " + layer + " file " + path, e.getSize());
      files.put(path, in.readNBytes((int) e.getSize()));
    }
  }

  /**
   * A kept link inside the image is followed when it names a kept file already seen; a kept one
   * pointing outside (or absolute) is refused. A link the image does not keep is skipped like any
   * other entry it does not keep.
   */
  private void link(int layer, TarArchiveEntry e, String path, String dir) throws TarException {
    if (!kept.test(path)) {
      return; // never followed: a base layer's links (/etc/localtime, lib*.so) neither refuse nor
      // count
    }
    String target = e.getLinkName();
    String resolved =
        e.isSymbolicLink() && !target.startsWith("/") ? TarPaths.join(dir, target) : target;
    String inside = TarPaths.normaliseLink(resolved);
    if (inside == null || target.startsWith("/") && e.isSymbolicLink()) {
      throw new TarException(
          "layer " + layer + " entry " + e.getName() + " links outside the image (" + target + ")");
    }
    budget.link("layer " + layer + " entry " + path);
    byte[] content = files.get(inside);
    if (content != null) {
      budget.keep("layer " + layer + " link " + path, content.length);
      files.put(path, content);
    }
  }

  private void removeUnder(String dir) {
    String prefix = dir.isEmpty() ? "" : dir + "/";
    files.keySet().removeIf(k -> k.startsWith(prefix));
  }
}
