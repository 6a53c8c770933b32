package io.olmstead.olmcore.bundle;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The files an image keeps (those {@code kept} accepts) after applying its layers in order, as a container
 * runtime would: later layers overwrite, {@code .wh.NAME} deletes NAME, {@code .wh..wh..opq} empties its
 * directory. Absolute or escaping paths, links pointing outside the image and device files are refused.
 */
final class LayerFiles {

    private static final String WHITEOUT = ".wh.";
    private static final String OPAQUE = ".wh..wh..opq";

    private final BundleLimits limits;
    private final Predicate<String> kept;
    private final Map<String, byte[]> files = new TreeMap<>();
    private long total;

    LayerFiles(BundleLimits limits, Predicate<String> kept) {
        this.limits = limits;
        this.kept = kept;
    }

    Map<String, byte[]> files() {
        return files;
    }

    /** Applies one uncompressed tar layer. */
    void apply(int layer, InputStream tar) throws BundleUnpackException, IOException {
        TarArchiveInputStream in = new TarArchiveInputStream(tar);
        int entries = 0;
        TarArchiveEntry e;
        while ((e = in.getNextEntry()) != null) {
            if (++entries > limits.maxEntries()) {
                throw new BundleUnpackException("layer " + layer + " has more than " + limits.maxEntries() + " entries");
            }
            String path = LayerPaths.normalise(e.getName());
            if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) {
                throw new BundleUnpackException("layer " + layer + " entry " + e.getName() + " is a device file");
            }
            if (path == null || e.isDirectory()) {
                continue;
            }
            String dir = LayerPaths.parent(path);
            String base = path.substring(dir.isEmpty() ? 0 : dir.length() + 1);
            if (base.equals(OPAQUE)) {
                removeUnder(dir);
            } else if (base.startsWith(WHITEOUT)) {
                String target = (dir.isEmpty() ? "" : dir + "/") + base.substring(WHITEOUT.length());
                files.remove(target);
                removeUnder(target);
            } else if (e.isSymbolicLink() || e.isLink()) {
                link(layer, e, path, dir);
            } else if (e.isFile()) {
                file(layer, in, e, path);
            }
        }
    }

    private void file(int layer, InputStream in, TarArchiveEntry e, String path) throws IOException, BundleUnpackException {
        long size = e.getSize();
        total += size;
        if (total > limits.maxTotalBytes()) {
            throw new BundleUnpackException("bundle image expands to more than " + limits.maxTotalBytes() + " bytes");
        }
        if (!kept.test(path)) {
            return; // the tar stream skips the data itself
        }
        if (size > limits.maxFileBytes()) {
            throw new BundleUnpackException("layer " + layer + " file " + path + " is " + size
                + " bytes, over the limit of " + limits.maxFileBytes());
        }
        files.put(path, in.readNBytes((int) size));
    }

    /** A link inside the image is followed when it names a kept file already seen; one pointing outside is refused. */
    private void link(int layer, TarArchiveEntry e, String path, String dir) throws BundleUnpackException {
        String target = e.getLinkName();
        String resolved = e.isSymbolicLink() && !target.startsWith("/") ? LayerPaths.join(dir, target) : target;
        String inside = LayerPaths.normaliseLink(resolved);
        if (inside == null || target.startsWith("/") && e.isSymbolicLink()) {
            throw new BundleUnpackException("layer " + layer + " entry " + e.getName() + " links outside the bundle ("
                + target + ")");
        }
        byte[] content = files.get(inside);
        if (content != null && kept.test(path)) {
            files.put(path, content);
        }
    }

    private void removeUnder(String dir) {
        String prefix = dir.isEmpty() ? "" : dir + "/";
        files.keySet().removeIf(k -> k.startsWith(prefix));
    }
}
