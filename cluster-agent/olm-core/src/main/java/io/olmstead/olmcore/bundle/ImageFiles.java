package io.olmstead.olmcore.bundle;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * Reads a directory of an image (pure: layer streams in, files out), with the same layer rules and limits as bundle
 * unpacking; a catalog image's FBC directory (its {@code operators.operatorframework.io.index.configs.v1} label).
 */
public final class ImageFiles {

    private ImageFiles() {
    }

    /** The files under {@code dir} (e.g. {@code /configs}), paths relative to it; empty when the image has none. */
    public static Map<String, byte[]> directory(List<InputStream> layers, BundleLimits limits, String dir)
            throws BundleUnpackException {
        String prefix = LayerPaths.normalise(dir.startsWith("/") ? dir.substring(1) : dir);
        String root = prefix == null ? "" : prefix + "/";
        LayerFiles fs = apply(layers, limits, p -> p.startsWith(root));
        Map<String, byte[]> out = new LinkedHashMap<>();
        fs.files().forEach((path, content) -> out.put(path.substring(root.length()), content));
        return out;
    }

    /** Applies the layers in order (each gzip-compressed or a plain tar), keeping what {@code kept} accepts. */
    static LayerFiles apply(List<InputStream> layers, BundleLimits limits, Predicate<String> kept)
            throws BundleUnpackException {
        LayerFiles fs = new LayerFiles(limits, kept);
        for (int i = 0; i < layers.size(); i++) {
            try (InputStream in = decompressed(i, layers.get(i))) {
                fs.apply(i, in);
            } catch (IOException e) {
                throw new BundleUnpackException("layer " + i + " is not a valid tar stream: " + e.getMessage(), e);
            }
        }
        return fs;
    }

    private static InputStream decompressed(int layer, InputStream raw) throws IOException, BundleUnpackException {
        BufferedInputStream in = new BufferedInputStream(raw, 65536);
        in.mark(4);
        int b0 = in.read();
        int b1 = in.read();
        int b2 = in.read();
        int b3 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            return new GZIPInputStream(in, 65536);
        }
        if (b0 == 0x28 && b1 == 0xb5 && b2 == 0x2f && b3 == 0xfd) {
            throw new BundleUnpackException("layer " + layer + " is zstd-compressed, which is not supported yet");
        }
        return in;
    }
}
