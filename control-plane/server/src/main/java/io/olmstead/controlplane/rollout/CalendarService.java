package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.ETags;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * One calendar resource (windows or freezes): validated PUT with If-Match, GET, list, DELETE; every
 * change audited.
 */
final class CalendarService {
  private final Tx tx;
  private final CalendarKind kind;
  private final CalendarStore store;

  CalendarService(Tx tx, CalendarKind kind) {
    this.tx = tx;
    this.kind = kind;
    this.store = new CalendarStore(kind.table);
  }

  Future<Reply> list(int limit, String cursor) {
    String after = cursor == null ? null : Cursors.decode(cursor, 1).getString(0);
    return tx.read(conn -> store.list(conn, after, limit + 1))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        CalendarStore.Entry::toJson,
                        e -> new JsonArray().add(e.name()))));
  }

  Future<Reply> get(String name) {
    return tx.read(conn -> store.get(conn, name))
        .map(
            found -> {
              CalendarStore.Entry entry = found.orElseThrow(() -> notFound(name));
              return Reply.ok(entry.toJson()).withEtag(entry.resourceVersion());
            });
  }

  /**
   * Creates (201) or replaces (200) after validation; a bad cron, zone, duration or date is a 422
   * naming it.
   */
  Future<Reply> put(
      Principal principal,
      String requestId,
      String name,
      JsonObject body,
      Optional<String> ifMatch) {
    JsonObject spec;
    try {
      spec = kind.validate.apply(body);
    } catch (CalendarInputException e) {
      return Future.failedFuture(
          ApiException.validationFailed(
              e.getMessage(),
              new JsonArray()
                  .add(
                      new JsonObject()
                          .put("field", "/" + e.field())
                          .put("message", e.getMessage()))));
    }
    AuditEntry entry =
        new AuditEntry(
            principal.actor(),
            kind.auditName + ".put",
            kind.table + "/" + name,
            AuditEntry.SUCCESS,
            spec,
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            ETags.checkMissing(ifMatch, kind.noun + " " + name);
                            return store.insert(conn, name, spec).map(true);
                          }
                          ETags.check(ifMatch, locked.get());
                          return store.update(conn, name, spec).map(false);
                        })
                    .compose(
                        created ->
                            store.get(conn, name).map(e -> new Put(created, e.orElseThrow()))),
            null)
        .map(
            put ->
                (put.created ? Reply.created(put.entry.toJson()) : Reply.ok(put.entry.toJson()))
                    .withEtag(put.entry.resourceVersion()));
  }

  Future<Reply> delete(
      Principal principal, String requestId, String name, Optional<String> ifMatch) {
    AuditEntry entry =
        new AuditEntry(
            principal.actor(),
            kind.auditName + ".delete",
            kind.table + "/" + name,
            AuditEntry.SUCCESS,
            null,
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            return Future.failedFuture(notFound(name));
                          }
                          ETags.check(ifMatch, locked.get());
                          return store.delete(conn, name);
                        }),
            null)
        .map(v -> Reply.noContent());
  }

  private ApiException notFound(String name) {
    return ApiException.notFound(kind.noun + " " + name + " does not exist");
  }

  private record Put(boolean created, CalendarStore.Entry entry) {}
}
