package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random mutations of real catalog bytes: the public API may only ever throw FbcException. */
class FbcFuzzTest {

  private static final int MUTATIONS = 300;
  private static final byte[] STRUCTURE =
      "{}[]:,\"'&*!-#|>?%@`\\\n\t 0v.".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final FbcParser parser =
      new FbcParser(new ParseLimits(ParseLimits.MIB, 4 * ParseLimits.MIB, 20, 64));

  @Test
  void mutatedRealCatalogsNeverLeakUncheckedExceptions() throws Exception {
    byte[] yaml =
        Files.readAllBytes(
            SharedCatalogs.require("community-v4.20/ecr-secret-operator/catalog.yaml"));
    byte[] jsonl = firstLines(SharedCatalogs.require("community-v4.20.jsonl"), 48 * 1024);
    byte[] withObjects =
        Files.readAllBytes(SharedCatalogs.require("bundled/dns-operator/catalog.json"));
    byte[][] seeds = {yaml, jsonl, withObjects};
    String[] names = {"catalog.yaml", "catalog.jsonl", "catalog.json"};
    Random random = new Random(20261122L);
    int parsedOk = 0;
    int rejected = 0;

    for (int i = 0; i < MUTATIONS; i++) {
      int s = i % seeds.length;
      byte[] input = mutate(seeds[s], random);
      String name = random.nextInt(5) == 0 ? "blob" : names[s];
      try {
        exercise(
            i % 10 == 0
                ? parser.parseTarGz(tarGz(name, input, random))
                : parser.parse(name, input));
        parsedOk++;
      } catch (FbcException expected) {
        assertThat(expected.getMessage()).isNotBlank();
        rejected++;
      } catch (Throwable t) {
        fail("mutation " + i + " of " + names[s] + " leaked " + t, t);
      }
    }
    assertThat(parsedOk + rejected).isEqualTo(MUTATIONS);
    assertThat(rejected).as("the mutations must actually break some inputs").isPositive();
  }

  /** Walks everything a caller may touch after a successful parse. */
  private static void exercise(DeclarativeConfig cfg) {
    for (ValidationMode mode : ValidationMode.values()) {
      ValidationResult r = CatalogValidator.validate(cfg, mode);
      r.catalog()
          .ifPresent(
              c ->
                  c.packages()
                      .forEach(p -> p.unusableChannels().values().forEach(g -> g.errors())));
      r.catalog()
          .ifPresent(
              c ->
                  c.packages()
                      .forEach(
                          p ->
                              p.channels()
                                  .values()
                                  .forEach(
                                      g -> {
                                        g.candidatesInOrder()
                                            .forEach(e -> g.upgradePath(e.name(), null));
                                        g.entries()
                                            .forEach(
                                                e ->
                                                    g.successorsOf(
                                                        e.name(),
                                                        g.versionOf(e.name()).orElse(null),
                                                        null));
                                      })));
    }
    for (Bundle b : cfg.bundles()) {
      b.providedGvks();
      b.requiredGvks();
      b.requiredPackages();
      b.version();
      b.csvMetadata().ifPresent(m -> m.features());
      b.constraints();
      b.maxOpenShiftVersion();
      b.packageProperty();
      for (BundleObject o : b.objects()) {
        o.kind();
        o.name();
        try {
          o.manifest();
        } catch (FbcException expected) {
          // a broken manifest is reported, not thrown unchecked
        }
      }
    }
  }

  private static byte[] mutate(byte[] seed, Random r) {
    byte[] b = seed.clone();
    int n = 1 + r.nextInt(8);
    for (int k = 0; k < n && b.length > 0; k++) {
      int pos = r.nextInt(b.length);
      switch (r.nextInt(6)) {
        case 0 -> b[pos] = (byte) r.nextInt(256);
        case 1 -> b[pos] = STRUCTURE[r.nextInt(STRUCTURE.length)];
        case 2 -> b = splice(b, pos, Math.min(b.length, pos + r.nextInt(64)), new byte[0]);
        case 3 -> b = splice(b, pos, pos, new byte[] {STRUCTURE[r.nextInt(STRUCTURE.length)]});
        case 4 -> {
          int from = r.nextInt(b.length);
          int len = Math.min(b.length - from, r.nextInt(256));
          b = splice(b, pos, pos, java.util.Arrays.copyOfRange(b, from, from + len));
        }
        default -> b = java.util.Arrays.copyOf(b, pos);
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int from, int to, byte[] insert) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + insert.length);
    out.write(b, 0, from);
    out.writeBytes(insert);
    out.write(b, to, b.length - to);
    return out.toByteArray();
  }

  private static byte[] tarGz(String name, byte[] content, Random r) throws Exception {
    byte[] tgz = new TarBuilder().entry("catalog/" + name, '0', content).tarGz();
    if (r.nextBoolean()) {
      int pos = 10 + r.nextInt(Math.max(1, tgz.length - 10));
      tgz[Math.min(pos, tgz.length - 1)] ^= (byte) (1 + r.nextInt(255));
    }
    return tgz;
  }

  private static byte[] firstLines(Path p, int approxBytes) throws Exception {
    byte[] all = Files.readAllBytes(p);
    int end = Math.min(all.length, approxBytes);
    while (end < all.length && all[end - 1] != '\n') {
      end++;
    }
    return java.util.Arrays.copyOf(all, end);
  }

  @Test
  void fuzzSeedsThemselvesParse() throws Exception {
    byte[] yaml =
        Files.readAllBytes(
            SharedCatalogs.require("community-v4.20/ecr-secret-operator/catalog.yaml"));

    assertThat(parser.parse("catalog.yaml", yaml).bundles()).isNotEmpty();
    assertThat(parser.parseFiles(Map.of("a/catalog.yaml", yaml)).packages()).hasSize(1);
  }
}
