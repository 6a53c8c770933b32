package io.olmstead.olmcore.bundle;

import io.olmstead.olmcore.tar.TarException;
import io.olmstead.olmcore.tar.TarFiles;
import io.olmstead.olmcore.tar.TarLimits;
import io.olmstead.olmcore.tar.TarPaths;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads a directory of an image (pure: layer streams in, files out) with {@link TarFiles}, the
 * reader of bundle images too; a catalog image's FBC directory (its {@code
 * operators.operatorframework.io.index.configs.v1} label).
 */
public final class ImageFiles {

  private ImageFiles() {}

  /**
   * The files under {@code dir} (e.g. {@code /configs}), paths relative to it, links sharing their
   * target's array; empty when the image has none.
   */
  public static Map<String, byte[]> directory(
      List<InputStream> layers, TarLimits limits, String dir) throws BundleUnpackException {
    String prefix;
    try {
      prefix = TarPaths.normalise(dir.startsWith("/") ? dir.substring(1) : dir);
    } catch (TarException e) {
      throw new BundleUnpackException(e.getMessage(), e);
    }
    String root = prefix == null ? "" : prefix + "/";
    Map<String, byte[]> out = new LinkedHashMap<>();
    apply(layers, limits, p -> p.startsWith(root))
        .forEach((path, content) -> out.put(path.substring(root.length()), content));
    return out;
  }

  /**
   * Applies the layers in order (each gzip-compressed or a plain tar) under one budget, keeping
   * what {@code kept} accepts.
   */
  static Map<String, byte[]> apply(
      List<InputStream> layers, TarLimits limits, Predicate<String> kept)
      throws BundleUnpackException {
    TarFiles fs = new TarFiles(limits, kept);
    try {
      for (int i = 0; i < layers.size(); i++) {
        fs.apply(i, layers.get(i));
      }
    } catch (TarException e) {
      throw new BundleUnpackException(e.getMessage(), e);
    }
    return fs.files();
  }
}
