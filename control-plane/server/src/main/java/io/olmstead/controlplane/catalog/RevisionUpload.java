package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.olmcore.fbc.ValidationIssue;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code POST /catalogs/{name}/revisions}: spools the body to a temporary file (bounded), parses
 * and validates it on a worker with olm-core, and stores a new immutable revision in one audited
 * transaction; content identical to the current revision returns that revision (200).
 */
public final class RevisionUpload {
  private final Vertx vertx;
  private final Tx tx;
  private final CatalogStore store;
  private final CatalogIngest ingest;
  private final long maxBytes;

  public RevisionUpload(Vertx vertx, Tx tx, CatalogStore store, long maxBytes) {
    this.vertx = vertx;
    this.tx = tx;
    this.store = store;
    this.ingest = new CatalogIngest(maxBytes);
    this.maxBytes = maxBytes;
  }

  /**
   * Handles one upload; {@code request} is still paused and its content type already checked
   * against the spec.
   */
  public Future<Reply> upload(
      Principal principal,
      String requestId,
      String name,
      String validation,
      HttpServerRequest request) {
    CatalogFormat format =
        CatalogFormat.ofContentType(request.getHeader(HttpHeaders.CONTENT_TYPE))
            .orElseThrow(
                () ->
                    ApiException.unsupportedMediaType(
                        "catalog content must be application/x-ndjson, "
                            + "application/json, application/yaml or application/gzip"));
    ValidationMode mode =
        "lenient".equalsIgnoreCase(validation) ? ValidationMode.LENIENT : ValidationMode.STRICT;
    String declared = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (declared != null
        && declared.trim().matches("\\d{1,19}")
        && Long.parseLong(declared.trim()) > maxBytes) {
      return refuseUnread(request, ApiException.bodyTooLarge(maxBytes));
    }
    return tx.read(conn -> store.get(conn, name))
        .compose(
            found ->
                found.isPresent()
                    ? BodySpool.spool(vertx, request, maxBytes)
                        .recover(
                            e ->
                                e instanceof ApiException api && api.status() == 413
                                    ? refuseUnread(request, api)
                                    : Future.failedFuture(e))
                    : refuseUnread(request, CatalogService.notFound(name)))
        .compose(path -> vertx.executeBlocking(() -> read(path), false))
        .compose(
            content ->
                unchanged(name, content)
                    .compose(
                        current ->
                            current.isPresent()
                                ? Future.succeededFuture(
                                    Reply.ok(current.get().toJson().put("current", true)))
                                : vertx
                                    .executeBlocking(
                                        () ->
                                            ingest.ingest(
                                                content.bytes, content.digest, format, mode),
                                        false)
                                    .compose(
                                        result ->
                                            store(principal, requestId, name, mode, result))));
  }

  /**
   * A revision read from a catalog image (a tar.gz of its FBC directory): validated like a strict
   * upload and stored by the same steps; identical content answers 200 with the current revision.
   * Fails like an upload (400/422).
   */
  public Future<Reply> fromImage(Principal poller, String name, byte[] tarGz) {
    Content content = new Content(tarGz, CatalogDigest.of(tarGz));
    return unchanged(name, content)
        .compose(
            current ->
                current.isPresent()
                    ? Future.succeededFuture(Reply.ok(current.get().toJson().put("current", true)))
                    : vertx
                        .executeBlocking(
                            () ->
                                ingest.ingest(
                                    content.bytes,
                                    content.digest,
                                    CatalogFormat.TAR_GZ,
                                    ValidationMode.STRICT),
                            false)
                        .compose(
                            result -> store(poller, null, name, ValidationMode.STRICT, result)));
  }

  /** The uploaded bytes and their digest. */
  private record Content(byte[] bytes, String digest) {}

  /**
   * The current revision when it has exactly these bytes: an identical upload needs no parsing at
   * all.
   */
  private Future<Optional<RevisionRecord>> unchanged(String name, Content content) {
    return tx.read(
        conn ->
            store
                .get(conn, name)
                .compose(
                    catalog -> {
                      if (catalog.isEmpty()
                          || catalog.get().currentRevision() == null
                          || !content.digest.equals(catalog.get().currentDigest())) {
                        return Future.succeededFuture(Optional.<RevisionRecord>empty());
                      }
                      return store.revision(conn, name, catalog.get().currentRevision());
                    }));
  }

  /**
   * The body was not (fully) read: answer, then close the connection rather than read the rest for
   * nothing (a client still sending would otherwise wait on a paused request forever).
   */
  private static <T> Future<T> refuseUnread(HttpServerRequest request, ApiException e) {
    request.response().putHeader(HttpHeaders.CONNECTION, "close");
    request.response().endHandler(v -> request.connection().close());
    return Future.failedFuture(e);
  }

  private static Content read(String path) throws Exception {
    byte[] content;
    try {
      content = Files.readAllBytes(Path.of(path));
    } finally {
      Files.deleteIfExists(Path.of(path));
    }
    if (content.length == 0) {
      throw ApiException.badRequest("the catalog content is empty", "body");
    }
    return new Content(content, CatalogDigest.of(content));
  }

  private Future<Reply> store(
      Principal principal,
      String requestId,
      String name,
      ValidationMode mode,
      IngestResult result) {
    if (result instanceof IngestResult.Malformed m) {
      JsonObject error = new JsonObject().put("field", "body").put("message", m.message());
      if (m.file() != null) {
        error.put("file", m.file());
      }
      if (m.line() > 0) {
        error.put("line", m.line()).put("column", m.column());
      }
      return Future.failedFuture(
          new ApiException(
              400,
              "bad-request",
              "Bad Request",
              "the catalog content is " + "malformed: " + location(m) + m.message(),
              new JsonArray().add(error)));
    }
    if (result instanceof IngestResult.Invalid invalid) {
      return Future.failedFuture(
          ApiException.validationFailed(
              "the catalog is invalid: " + invalid.errors().size() + " error(s)",
              issues(invalid.errors())));
    }
    IngestResult.Accepted accepted = (IngestResult.Accepted) result;
    String validation = mode.name().toLowerCase(Locale.ROOT);
    JsonArray warnings = issues(accepted.warnings());
    AuditEntry entry =
        new AuditEntry(
            principal.actor(),
            "catalog.revision.upload",
            "catalogs/" + name,
            AuditEntry.SUCCESS,
            new JsonObject().put("digest", accepted.digest()).put("validation", validation),
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            return Future.failedFuture(CatalogService.notFound(name));
                          }
                          Integer current = locked.get().currentRevision();
                          Future<Boolean> identical =
                              current == null
                                  ? Future.succeededFuture(false)
                                  : store
                                      .revision(conn, name, current)
                                      .map(
                                          r ->
                                              r.map(rev -> rev.digest().equals(accepted.digest()))
                                                  .orElse(false));
                          return identical
                              .compose(
                                  same -> {
                                    if (same) {
                                      return Future.succeededFuture(new Stored(current, false));
                                    }
                                    int next = current == null ? 1 : current + 1;
                                    return store
                                        .insertRevision(
                                            conn,
                                            name,
                                            next,
                                            accepted,
                                            validation,
                                            warnings,
                                            principal.actor())
                                        .map(new Stored(next, true));
                                  })
                              .compose(
                                  stored ->
                                      store
                                          .revision(conn, name, stored.revision)
                                          .map(
                                              rev ->
                                                  new Stored(
                                                      stored.revision,
                                                      stored.created,
                                                      rev.orElseThrow())));
                        }),
            stored ->
                entry
                    .detail()
                    .copy()
                    .put("revision", stored.revision)
                    .put("created", stored.created))
        .map(
            stored -> {
              JsonObject body = stored.record.toJson().put("current", true);
              return stored.created ? Reply.created(body) : Reply.ok(body);
            });
  }

  private record Stored(int revision, boolean created, RevisionRecord record) {
    Stored(int revision, boolean created) {
      this(revision, created, null);
    }
  }

  private static String location(IngestResult.Malformed m) {
    if (m.file() == null) {
      return "";
    }
    return m.line() > 0 ? m.file() + ":" + m.line() + ":" + m.column() + ": " : m.file() + ": ";
  }

  static JsonArray issues(List<ValidationIssue> issues) {
    JsonArray out = new JsonArray();
    for (ValidationIssue issue : issues) {
      JsonObject json = new JsonObject();
      if (issue.packageName() != null) {
        json.put("package", issue.packageName());
      }
      if (issue.channel() != null) {
        json.put("channel", issue.channel());
      }
      if (issue.bundle() != null) {
        json.put("bundle", issue.bundle());
      }
      if (issue.field() != null) {
        json.put("field", issue.field());
      }
      out.add(json.put("message", issue.message()));
    }
    return out;
  }
}
