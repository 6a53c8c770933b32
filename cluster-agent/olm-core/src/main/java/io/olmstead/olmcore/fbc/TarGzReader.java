package io.olmstead.olmcore.fbc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A minimal, bounded reader for a gzip-compressed tar of a catalog directory: ustar/GNU headers, PAX and
 * GNU long names, regular files only (links, devices and directories skipped), no absolute or {@code ..}
 * paths, and every byte counted against the limits (gzip bombs stop early).
 */
final class TarGzReader {

    private static final String NAME = "<tar.gz>";
    private static final int BLOCK = 512;

    private final ParseLimits limits;
    private long total;

    TarGzReader(ParseLimits limits) {
        this.limits = limits;
    }

    Map<String, byte[]> read(byte[] gz) throws FbcException {
        if (gz == null) {
            throw new FbcException(NAME, 0, 0, "no archive given");
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 8192)) {
            byte[] header = new byte[BLOCK];
            String longName = null;
            while (true) {
                if (!readFully(in, header)) {
                    break; // no end-of-archive marker: tolerated like most tar readers
                }
                if (isZero(header)) {
                    break;
                }
                verifyChecksum(header);
                long size = parseOctal(header, 124, 12);
                char type = (char) header[156];
                if (size < 0 || size > limits.maxTotalBytes()) {
                    throw new FbcException(NAME, 0, 0, "tar entry size exceeds the limit of " + limits.maxTotalBytes());
                }
                if (type == 'L' || type == 'x') {
                    if (size > (1 << 20)) {
                        throw new FbcException(NAME, 0, 0, "invalid tar.gz: extended header too large");
                    }
                    byte[] meta = readEntry(in, size, size);
                    longName = type == 'L' ? cString(meta, 0, meta.length) : paxPath(meta, longName);
                    continue;
                }
                String name = longName != null ? longName : headerName(header);
                longName = null;
                if (type == '0' || type == '\0' || type == '7') {
                    String path = safePath(name);
                    if (total + size > limits.maxTotalBytes()) {
                        throw new FbcException(path, 0, 0, "catalog exceeds the total size limit of " + limits.maxTotalBytes());
                    }
                    byte[] content = readEntry(in, size, size);
                    total += size;
                    if (path != null) {
                        files.put(path, content);
                    }
                } else {
                    readEntry(in, size, -1); // directories, links, devices, global PAX headers: skipped
                }
            }
        } catch (IOException e) {
            throw new FbcException(NAME, 0, 0, "invalid tar.gz: " + e.getMessage(), e);
        }
        return files;
    }

    /** Reads (keep >= 0) or skips (keep < 0) an entry's data and its padding. */
    private byte[] readEntry(InputStream in, long size, long keep) throws IOException, FbcException {
        long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
        byte[] out = keep >= 0 ? new byte[(int) size] : null;
        if (out != null && !readFully(in, out)) {
            throw new FbcException(NAME, 0, 0, "invalid tar.gz: truncated entry");
        }
        long rest = out != null ? padded - size : padded;
        byte[] buf = new byte[BLOCK];
        while (rest > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, rest));
            if (n < 0) {
                throw new FbcException(NAME, 0, 0, "invalid tar.gz: truncated entry");
            }
            rest -= n;
            // skipped bytes count too, so that a huge skipped entry cannot make us inflate forever
            total += n;
            if (total > limits.maxTotalBytes()) {
                throw new FbcException(NAME, 0, 0, "catalog exceeds the total size limit of " + limits.maxTotalBytes());
            }
        }
        return out;
    }

    private static String headerName(byte[] h) {
        String name = cString(h, 0, 100);
        boolean ustar = h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
        String prefix = ustar ? cString(h, 345, 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String paxPath(byte[] meta, String fallback) throws FbcException {
        String s = new String(meta, StandardCharsets.UTF_8);
        int i = 0;
        while (i < s.length()) {
            int sp = s.indexOf(' ', i);
            if (sp < 0) {
                break;
            }
            int len;
            try {
                len = Integer.parseInt(s.substring(i, sp));
            } catch (NumberFormatException e) {
                throw new FbcException(NAME, 0, 0, "invalid tar.gz: malformed PAX header");
            }
            if (len <= 0 || i + len > s.length()) {
                throw new FbcException(NAME, 0, 0, "invalid tar.gz: malformed PAX header");
            }
            String rec = s.substring(sp + 1, i + len - 1);
            if (rec.startsWith("path=")) {
                return rec.substring(5);
            }
            i += len;
        }
        return fallback;
    }

    /** Normalises a member path; null for directories-only names; rejects absolute and parent-escaping paths. */
    private static String safePath(String name) throws FbcException {
        String n = name.replace('\\', '/');
        if (n.startsWith("/") || n.matches("^[A-Za-z]:.*")) {
            throw new FbcException(name, 0, 0, "tar entry has an absolute path");
        }
        StringBuilder sb = new StringBuilder();
        for (String seg : n.split("/")) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                throw new FbcException(name, 0, 0, "tar entry escapes the archive root");
            }
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(seg);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    private static void verifyChecksum(byte[] h) throws FbcException {
        long expected = parseOctal(h, 148, 8);
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            sum += i >= 148 && i < 156 ? ' ' : (h[i] & 0xff);
        }
        if (expected != sum) {
            throw new FbcException(NAME, 0, 0, "invalid tar.gz: bad header checksum");
        }
    }

    private static long parseOctal(byte[] h, int off, int len) throws FbcException {
        long v = 0;
        boolean any = false;
        for (int i = off; i < off + len; i++) {
            byte b = h[i];
            if (b == 0 || b == ' ') {
                if (any) {
                    break;
                }
                continue;
            }
            if (b < '0' || b > '7') {
                throw new FbcException(NAME, 0, 0, "invalid tar.gz: bad numeric header field");
            }
            any = true;
            v = v * 8 + (b - '0');
            if (v > (1L << 40)) {
                throw new FbcException(NAME, 0, 0, "invalid tar.gz: numeric header field too large");
            }
        }
        return v;
    }

    private static String cString(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.UTF_8);
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean readFully(InputStream in, byte[] buf) throws IOException {
        int off = 0;
        while (off < buf.length) {
            int n = in.read(buf, off, buf.length - off);
            if (n < 0) {
                if (off == 0) {
                    return false;
                }
                throw new IOException("truncated archive");
            }
            off += n;
        }
        return true;
    }
}
