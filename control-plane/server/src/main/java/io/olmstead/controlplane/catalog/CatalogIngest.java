package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ParseLimits;
import io.olmstead.olmcore.fbc.ValidationIssue;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.fbc.ValidationResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses and validates uploaded catalog content with olm-core. Blocking and CPU heavy: run it on a
 * worker.
 */
public final class CatalogIngest {
  private final FbcParser parser;

  public CatalogIngest(long maxBytes) {
    ParseLimits defaults = ParseLimits.defaults();
    // a tar.gz expands: allow its content up to four times the upload limit, never less than
    // olm-core's default
    long total = Math.max(defaults.maxTotalBytes(), maxBytes * 4);
    this.parser =
        new FbcParser(
            new ParseLimits(
                defaults.maxBlobBytes(),
                total,
                defaults.maxYamlAliases(),
                defaults.maxNestingDepth()));
  }

  /**
   * Parses, then validates in the given mode (strict: also olm-core's webhook checks of every
   * bundle's CSV, see {@link BundleWebhookCheck}); never throws on bad input.
   */
  public IngestResult ingest(byte[] content, CatalogFormat format, ValidationMode mode) {
    return ingest(content, CatalogDigest.of(content), format, mode);
  }

  /**
   * As {@link #ingest(byte[], CatalogFormat, ValidationMode)} with the content's digest already
   * computed.
   */
  public IngestResult ingest(
      byte[] content, String digest, CatalogFormat format, ValidationMode mode) {
    DeclarativeConfig config;
    try {
      config = format.parse(parser, content);
    } catch (FbcException e) {
      return new IngestResult.Malformed(e.file(), e.line(), e.column(), rootMessage(e));
    } catch (RuntimeException e) {
      // olm-core promises checked exceptions only; a slip must still be a 4xx for the uploader, not
      // a 500
      return new IngestResult.Malformed(
          format.fileName(), 0, 0, "cannot read catalog: " + e.getClass().getSimpleName());
    }
    if (config.packages().isEmpty()) {
      return new IngestResult.Malformed(
          format.fileName(), 0, 0, "no olm.package found: the content is not a catalog");
    }
    ValidationResult result = CatalogValidator.validate(config, mode);
    if (result.catalog().isEmpty() || !result.errors().isEmpty()) {
      return new IngestResult.Invalid(digest, result.errors());
    }
    // what the agent would refuse to plan: an error in strict mode, a warning in lenient mode
    List<ValidationIssue> webhookIssues = BundleWebhookCheck.issues(result.catalog().get());
    if (mode != ValidationMode.LENIENT && !webhookIssues.isEmpty()) {
      return new IngestResult.Invalid(digest, webhookIssues);
    }
    List<ValidationIssue> warnings = new ArrayList<>(result.warnings());
    warnings.addAll(webhookIssues);
    return new IngestResult.Accepted(
        digest, content, format, result.catalog().get(), List.copyOf(warnings));
  }

  /**
   * The exception's own text without the {@code file:line:col: } prefix (those are separate
   * fields).
   */
  private static String rootMessage(FbcException e) {
    String message = e.getMessage() == null ? "malformed catalog" : e.getMessage();
    // parsers append a multi-line excerpt of the input; the first line says what is wrong, the
    // fields say where
    int newline = message.indexOf('\n');
    message = newline > 0 ? message.substring(0, newline) : message;
    String prefix = e.file() == null ? "" : e.file();
    if (!prefix.isEmpty() && message.startsWith(prefix)) {
      int idx = message.indexOf(": ", prefix.length());
      if (idx >= 0) {
        return message.substring(idx + 2);
      }
    }
    return message;
  }
}
