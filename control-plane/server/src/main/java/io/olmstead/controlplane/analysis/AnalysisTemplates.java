package io.olmstead.controlplane.analysis;

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
import java.util.List;
import java.util.Optional;

/**
 * {@code /analysis-templates}: named checks a rollout's analysis names by {@code templateName}. A
 * template belongs to a team (query parameter {@code team}) or to the whole fleet (no team). Only
 * an admin of no team writes them (the operations are fleet-wide: a query reads every team's
 * series); readers see the fleet-wide templates and their own teams', another team's is answered
 * 404. Every change is audited in its transaction; replacing and deleting honour {@code If-Match}.
 * Rollouts keep the copy they resolved when they were created, so an edit or a deletion changes
 * only rollouts created afterwards.
 */
public final class AnalysisTemplates {
  private final Tx tx;
  private final PrometheusClient prometheus;
  private final AnalysisTemplateStore store = new AnalysisTemplateStore();

  public AnalysisTemplates(Tx tx, PrometheusClient prometheus) {
    this.tx = tx;
    this.prometheus = prometheus;
  }

  /** The templates {@code caller} may read, by team (fleet-wide first) then name. */
  public Future<Reply> list(Principal caller, int limit, String cursor) {
    JsonArray after = cursor == null ? null : Cursors.decode(cursor, 2);
    return tx.read(
            conn ->
                store.list(
                    conn,
                    caller.teamFilter(),
                    after == null ? null : after.getString(0),
                    after == null ? null : after.getString(1),
                    limit + 1))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        AnalysisTemplateStore.Template::toJson,
                        t -> new JsonArray().add(t.team()).add(t.name()))));
  }

  public Future<Reply> get(Principal caller, String team, String name) {
    String owner = owner(team);
    return tx.read(conn -> store.get(conn, owner, name))
        .map(
            found -> {
              // fleet-wide templates are everyone's; a team's, only its members' (and those of no
              // team)
              AnalysisTemplateStore.Template t =
                  owner.isEmpty()
                      ? found.orElseThrow(() -> ApiException.notFound(notFound(owner, name)))
                      : caller.visible(
                          found, AnalysisTemplateStore.Template::team, notFound(owner, name));
              return Reply.ok(t.toJson()).withEtag(t.resourceVersion());
            });
  }

  /**
   * Creates (201) or replaces (200) after validation: a bad field, a template naming another
   * template, a query over {@value AnalysisCheck#MAX_QUERY_CHARS} characters or one Prometheus
   * cannot parse is a 422 naming it, nothing stored. When Prometheus cannot be asked, the template
   * is stored and the answer's {@code warnings} say so.
   */
  public Future<Reply> put(
      Principal caller,
      String requestId,
      String team,
      String name,
      JsonObject body,
      Optional<String> ifMatch) {
    String owner = owner(team);
    AnalysisCheck check;
    try {
      if (body.containsKey("templateName")) {
        throw new AnalysisCheck.CheckException(
            "templateName", "a template cannot name another template " + "(templates do not nest)");
      }
      AnalysisCheck.checkRequest(body);
      check = AnalysisCheck.fromJson(body, true);
    } catch (AnalysisCheck.CheckException e) {
      return Future.failedFuture(
          ApiException.validationFailed(
              e.getMessage(),
              new JsonArray()
                  .add(
                      new JsonObject()
                          .put("field", "/" + e.field())
                          .put("message", e.getMessage()))));
    }
    JsonObject spec = check.toJson();
    AuditEntry entry =
        new AuditEntry(
            caller.actor(),
            "analysis-template.put",
            resource(owner, name),
            AuditEntry.SUCCESS,
            spec.copy().put("team", team),
            requestId);
    return QueryCheck.check(prometheus, List.of(check.query()), i -> "/query")
        .compose(
            checked ->
                tx.audited(
                    entry,
                    conn ->
                        store
                            .lock(conn, owner, name)
                            .compose(
                                locked -> {
                                  if (locked.isEmpty()) {
                                    ETags.checkMissing(ifMatch, "analysis template " + name);
                                    return store
                                        .insert(conn, owner, name, spec, caller.actor())
                                        .map(true);
                                  }
                                  ETags.check(ifMatch, locked.get());
                                  return store.update(conn, owner, name, spec).map(false);
                                })
                            .compose(
                                created ->
                                    store
                                        .get(conn, owner, name)
                                        .map(
                                            t -> {
                                              JsonObject json = t.orElseThrow().toJson();
                                              if (checked.notChecked() != null) {
                                                json.put(
                                                    "warnings",
                                                    new JsonArray()
                                                        .add(
                                                            "the query was stored without being checked: "
                                                                + checked.notChecked()));
                                              }
                                              return (created
                                                      ? Reply.created(json)
                                                      : Reply.ok(json))
                                                  .withEtag(t.get().resourceVersion());
                                            })),
                    null));
  }

  /** Deletes the template; rollouts created from it keep their copy. */
  public Future<Reply> delete(
      Principal caller, String requestId, String team, String name, Optional<String> ifMatch) {
    String owner = owner(team);
    AuditEntry entry =
        new AuditEntry(
            caller.actor(),
            "analysis-template.delete",
            resource(owner, name),
            AuditEntry.SUCCESS,
            new JsonObject().put("team", team),
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, owner, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            return Future.failedFuture(
                                ApiException.notFound(notFound(owner, name)));
                          }
                          ETags.check(ifMatch, locked.get());
                          return store.delete(conn, owner, name);
                        }),
            null)
        .map(v -> Reply.noContent());
  }

  private static String owner(String team) {
    return team == null ? AnalysisTemplateStore.FLEET : team;
  }

  private static String resource(String owner, String name) {
    return "analysis-templates/" + (owner.isEmpty() ? name : owner + "/" + name);
  }

  private static String notFound(String owner, String name) {
    return "analysis template "
        + name
        + (owner.isEmpty() ? "" : " of team " + owner)
        + " does not exist";
  }
}
