package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Opaque keyset cursors: the sort key of the last item of a page, sealed ({@link CursorSealer}:
 * encrypted and signed with the replicas' shared key) so that a client can neither read nor forge
 * one. Keyset pages stay stable under concurrent inserts (an item present for the whole walk is
 * returned exactly once), which offsets do not.
 */
public final class Cursors {
  private static final String SHARED_MAP = "olmstead.cursors";

  private Cursors() {}

  /** Makes {@code secret} the cursor key of this Vert.x instance (see {@link CursorKey}). */
  public static void install(Vertx vertx, byte[] secret) {
    vertx
        .sharedData()
        .<String, CursorSealer>getLocalMap(SHARED_MAP)
        .put(SHARED_MAP, new CursorSealer(secret));
  }

  private static CursorSealer sealer() {
    Context context = Vertx.currentContext();
    CursorSealer sealer =
        context == null
            ? null
            : context
                .owner()
                .sharedData()
                .<String, CursorSealer>getLocalMap(SHARED_MAP)
                .get(SHARED_MAP);
    if (sealer == null) {
      throw new IllegalStateException("no cursor key installed for this Vert.x instance");
    }
    return sealer;
  }

  public static String encode(JsonArray key) {
    return sealer().seal(key.encode().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The key inside a cursor, checked to have {@code size} elements; 400 for anything this server
   * did not issue.
   */
  public static JsonArray decode(String cursor, int size) {
    try {
      byte[] payload =
          sealer().open(cursor).orElseThrow(() -> new IllegalArgumentException("not sealed here"));
      JsonArray key = new JsonArray(new String(payload, StandardCharsets.UTF_8));
      if (key.size() != size) {
        throw new IllegalArgumentException("wrong cursor size");
      }
      return new Key(key);
    } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
      throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
    }
  }

  /**
   * A page from rows fetched with {@code LIMIT limit + 1}: {@code {items, nextCursor}}, where the
   * extra row only tells that another page exists.
   */
  public static <T> JsonObject page(
      List<T> rows, int limit, Function<T, JsonObject> toJson, Function<T, JsonArray> key) {
    List<T> items = rows.size() > limit ? rows.subList(0, limit) : rows;
    List<JsonObject> json = new ArrayList<>(items.size());
    items.forEach(item -> json.add(toJson.apply(item)));
    String next = rows.size() > limit ? encode(key.apply(items.get(items.size() - 1))) : null;
    return new JsonObject().put("items", new JsonArray(json)).put("nextCursor", next);
  }

  /**
   * A decoded key whose numeric getters answer 400, not 500, when the element is of another type: a
   * sealed cursor is not bound to its list, so one from a list keyed by name may be sent to a list
   * keyed by number.
   */
  private static final class Key extends JsonArray {
    Key(JsonArray key) {
      super(key.getList());
    }

    @Override
    public Integer getInteger(int pos) {
      return number(pos) == null ? null : super.getInteger(pos);
    }

    @Override
    public Long getLong(int pos) {
      return number(pos) == null ? null : super.getLong(pos);
    }

    @Override
    public boolean equals(Object other) {
      JsonArray plain = new JsonArray(getList());
      return other instanceof Key key
          ? plain.equals(new JsonArray(key.getList()))
          : plain.equals(other);
    }

    @Override
    public int hashCode() {
      return super.hashCode();
    }

    private Number number(int pos) {
      Object value = getValue(pos);
      if (value != null && !(value instanceof Number)) {
        throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
      }
      return (Number) value;
    }
  }
}
