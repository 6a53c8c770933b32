package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.ValidationIssue;
import java.util.List;

/**
 * What parsing and validating an upload gave: an accepted catalog, a list of validation errors, or
 * unreadable input.
 */
public sealed interface IngestResult {

  /**
   * The upload is a valid catalog (in lenient mode: what remained valid); {@code content} is the
   * uploaded bytes.
   */
  record Accepted(
      String digest,
      byte[] content,
      CatalogFormat format,
      Catalog catalog,
      List<ValidationIssue> warnings)
      implements IngestResult {}

  /** The upload parsed but is not a valid catalog: every error found. */
  record Invalid(String digest, List<ValidationIssue> errors) implements IngestResult {}

  /**
   * The upload is not well-formed JSON/YAML/tar.gz; file, line and column are 0/null when unknown.
   */
  record Malformed(String file, int line, int column, String message) implements IngestResult {}
}
