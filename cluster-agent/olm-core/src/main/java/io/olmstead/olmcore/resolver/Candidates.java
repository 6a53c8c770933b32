package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.resolver.Problem.Var;
import java.util.ArrayList;
import java.util.List;

/**
 * The ordered candidates of a dependency. A candidate is an existing variable (an installed bundle)
 * or a catalog bundle whose variable is created only when the search first needs it: most
 * dependencies are settled by their first candidates, so long channels never become hundreds of
 * variables.
 */
final class Candidates {
  /** One candidate: a variable, or a bundle offered by a catalog in a channel. */
  record Ref(Var var, CatalogSource source, String channel, Bundle bundle) {
    String packageName() {
      return var != null ? var.packageName : bundle.packageName();
    }
  }

  /** Creates ({@code create == true}) or only looks up the variable of a catalog bundle. */
  interface Vars {
    Var of(Ref ref, boolean create);
  }

  private final List<Ref> refs;
  private final Var[] vars;
  private final Vars lookup;

  Candidates(List<Ref> refs, Vars lookup) {
    this.refs = List.copyOf(refs);
    this.vars = new Var[refs.size()];
    this.lookup = lookup;
  }

  int size() {
    return vars.length;
  }

  /** The variable of candidate {@code i}, created if needed. */
  Var get(int i) {
    Var v = vars[i];
    if (v == null) {
      v = lookup.of(refs.get(i), true);
      vars[i] = v;
    }
    return v;
  }

  /**
   * The variable of candidate {@code i} if it exists already (here or through another list), else
   * null.
   */
  Var peek(int i) {
    Var v = vars[i];
    if (v == null) {
      v = lookup.of(refs.get(i), false);
      vars[i] = v;
    }
    return v;
  }

  /** The package of candidate {@code i}, known without creating its variable. */
  String packageName(int i) {
    return refs.get(i).packageName();
  }

  /** Creates every variable (to explain a conflict, the whole problem is needed). */
  void materializeAll() {
    for (int i = 0; i < vars.length; i++) {
      get(i);
    }
  }

  /** All variables, created if needed. */
  List<Var> all() {
    materializeAll();
    List<Var> out = new ArrayList<>(vars.length);
    for (Var v : vars) {
      out.add(v);
    }
    return out;
  }
}
