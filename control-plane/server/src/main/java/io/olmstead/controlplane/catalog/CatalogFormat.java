package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import java.util.Locale;
import java.util.Optional;

/** The upload formats a catalog revision may come in, chosen by the request's content type. */
public enum CatalogFormat {
  NDJSON("application/x-ndjson", "catalog.jsonl"),
  JSON("application/json", "catalog.json"),
  YAML("application/yaml", "catalog.yaml"),
  TAR_GZ("application/gzip", "catalog.tar.gz");

  private final String mediaType;
  private final String fileName;

  CatalogFormat(String mediaType, String fileName) {
    this.mediaType = mediaType;
    this.fileName = fileName;
  }

  public String mediaType() {
    return mediaType;
  }

  /** The name parse errors refer to (a tar's errors name the file inside it). */
  public String fileName() {
    return fileName;
  }

  /**
   * The format of a {@code Content-Type} header value (parameters ignored; common aliases
   * accepted).
   */
  public static Optional<CatalogFormat> ofContentType(String contentType) {
    if (contentType == null) {
      return Optional.empty();
    }
    String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    switch (type) {
      case "application/x-ndjson":
      case "application/jsonl":
      case "application/json-seq":
        return Optional.of(NDJSON);
      case "application/json":
        return Optional.of(JSON);
      case "application/yaml":
      case "application/x-yaml":
      case "text/yaml":
        return Optional.of(YAML);
      case "application/gzip":
      case "application/x-gzip":
      case "application/x-tar+gzip":
        return Optional.of(TAR_GZ);
      default:
        return Optional.empty();
    }
  }

  /** Parses content of this format (blocking; call on a worker). */
  public DeclarativeConfig parse(FbcParser parser, byte[] content) throws FbcException {
    return this == TAR_GZ ? parser.parseTarGz(content) : parser.parse(fileName, content);
  }
}
