package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The resolution problem as variables and constraints, in the shape of OLM's solver input: a
 * variable per subscription and per candidate bundle (per catalog and channel); constraints
 * "mandatory", "prohibited", "dependency" (if the subject is chosen, one of the candidates must be,
 * in preference order) and "at most one" per package and per GVK. Bundle dependencies are added
 * lazily, when a bundle is first chosen.
 */
final class Problem {
  static final byte UNSET = 0;
  static final byte TRUE = 1;
  static final byte FALSE = 2;

  /**
   * Adds the dependency constraints of a bundle variable; called once per variable, when first
   * chosen.
   */
  interface Expander {
    void expand(Var v);
  }

  enum Kind {
    MANDATORY,
    PROHIBITED,
    DEPENDENCY,
    AT_MOST_ONE
  }

  /**
   * A variable: a subscription (no package) or a bundle from a catalog channel or already
   * installed.
   */
  static final class Var {
    final int index;

    /** The bundle name, or the subscription's name for a subscription variable. */
    final String name;

    private final boolean subscription;
    private String id;
    final String packageName;
    final Bundle bundle;
    final String catalog;
    final String channel;
    final boolean installed;
    final Version version;
    final List<Group> groups = new ArrayList<>(2);

    /** Dependency constraints whose subject this is (known once expanded). */
    final List<Constraint> dependencies = new ArrayList<>(2);

    byte value = UNSET;
    boolean expanded;

    Var(
        int index,
        String name,
        boolean subscription,
        String packageName,
        Bundle bundle,
        String catalog,
        String channel,
        boolean installed,
        Version version) {
      this.index = index;
      this.name = name;
      this.subscription = subscription;
      this.packageName = packageName;
      this.bundle = bundle;
      this.catalog = catalog;
      this.channel = channel;
      this.installed = installed;
      this.version = version;
    }

    /** The name the upstream messages use for a bundle ("bundle X requires ..."). */
    String bundleName() {
      return bundle != null ? bundle.name() : name;
    }

    /**
     * The identifier upstream-style messages use; built on first use, as most resolutions never
     * need it.
     */
    String id() {
      if (id == null) {
        id =
            subscription
                ? "subscription:" + name
                : installed ? "@existing/" + name : catalog + "/" + channel + "/" + name;
      }
      return id;
    }

    @Override
    public String toString() {
      return id();
    }
  }

  /** The variables sharing a package or a provided GVK; at most one of them may be chosen. */
  static final class Group {
    final int index;
    final String subject;
    final boolean isPackage;
    final List<Var> members = new ArrayList<>(4);
    Var selected;
    Constraint constraint;

    Group(int index, String subject, boolean isPackage) {
      this.index = index;
      this.subject = subject;
      this.isPackage = isPackage;
    }
  }

  /** One constraint; {@code enabled} lets the conflict explainer switch constraints off. */
  static final class Constraint {
    final Kind kind;
    final Var subject;
    final Candidates candidates;
    final Group group;
    private final Supplier<String> message;
    boolean enabled = true;

    /**
     * A candidate last seen chosen: checked first, since a satisfied dependency mostly stays
     * satisfied.
     */
    Var witness;

    Constraint(
        Kind kind, Var subject, Candidates candidates, Group group, Supplier<String> message) {
      this.kind = kind;
      this.subject = subject;
      this.candidates = candidates;
      this.group = group;
      this.message = message;
    }

    /** The upstream-worded text of this constraint. */
    String describe() {
      if (kind != Kind.AT_MOST_ONE) {
        return message.get();
      }
      List<String> ids = new ArrayList<>();
      group.members.forEach(m -> ids.add(m.id()));
      String all =
          ids.size() < 2
              ? String.join("", ids)
              : String.join(", ", ids.subList(0, ids.size() - 1))
                  + " and "
                  + ids.get(ids.size() - 1);
      return group.isPackage
          ? all + " originate from package " + group.subject
          : all + " provide " + group.subject;
    }

    @Override
    public String toString() {
      return describe();
    }
  }

  final List<Var> vars = new ArrayList<>();
  final List<Group> groups = new ArrayList<>();
  final List<Constraint> mandatory = new ArrayList<>();
  final List<Constraint> prohibited = new ArrayList<>();
  final List<Constraint> dependencies = new ArrayList<>();

  /**
   * Every constraint except the at-most-one groups, in creation order (the order messages are
   * listed in).
   */
  final List<Constraint> ordered = new ArrayList<>();

  private final Map<String, Group> packageGroups = new HashMap<>();
  private final Map<String, Group> apiGroups = new HashMap<>();
  private final Expander expander;

  Problem(Expander expander) {
    this.expander = expander;
  }

  Var addSubscriptionVar(String name) {
    Var v = new Var(vars.size(), name, true, null, null, null, null, false, null);
    v.expanded = true;
    vars.add(v);
    return v;
  }

  /**
   * A bundle variable; {@code apiSubjects} are its provided APIs as {@code Kind (group/version)}.
   */
  Var addBundleVar(
      String name,
      String packageName,
      Bundle bundle,
      String catalog,
      String channel,
      boolean installed,
      Version version,
      List<String> apiSubjects) {
    Var v =
        new Var(
            vars.size(), name, false, packageName, bundle, catalog, channel, installed, version);
    vars.add(v);
    if (packageName != null) {
      join(v, packageGroups, packageName, true);
    }
    for (String subject : apiSubjects) {
      join(v, apiGroups, subject, false);
    }
    return v;
  }

  private void join(Var v, Map<String, Group> byKey, String subject, boolean isPackage) {
    Group g = byKey.get(subject);
    if (g == null) {
      g = new Group(groups.size(), subject, isPackage);
      g.constraint = new Constraint(Kind.AT_MOST_ONE, null, null, g, null);
      groups.add(g);
      byKey.put(subject, g);
    }
    if (!v.groups.contains(g)) {
      g.members.add(v);
      v.groups.add(g);
    }
  }

  void addMandatory(Var v, String message) {
    Constraint c = new Constraint(Kind.MANDATORY, v, null, null, () -> message);
    mandatory.add(c);
    ordered.add(c);
  }

  void addProhibited(Var v, String message) {
    Constraint c = new Constraint(Kind.PROHIBITED, v, null, null, () -> message);
    prohibited.add(c);
    ordered.add(c);
  }

  /**
   * A dependency; its message is only built when a conflict is explained (most resolutions never
   * need it).
   */
  Constraint addDependency(Var subject, Candidates candidates, Supplier<String> message) {
    Constraint c = new Constraint(Kind.DEPENDENCY, subject, candidates, null, message);
    dependencies.add(c);
    subject.dependencies.add(c);
    ordered.add(c);
    return c;
  }

  /** Adds the variable's dependency constraints unless already done. */
  void expand(Var v) {
    if (!v.expanded) {
      v.expanded = true;
      expander.expand(v);
    }
  }

  /** The at-most-one group of a package, if any variable of that package exists. */
  Group packageGroup(String packageName) {
    return packageName == null ? null : packageGroups.get(packageName);
  }

  /**
   * Creates every candidate variable and expands every variable, transitively: the full constraint
   * set, needed to explain a conflict.
   */
  void expandAll() {
    int expanded = 0;
    int materialized = 0;
    while (expanded < vars.size() || materialized < dependencies.size()) {
      while (expanded < vars.size()) {
        expand(vars.get(expanded++));
      }
      while (materialized < dependencies.size()) {
        dependencies.get(materialized++).candidates.materializeAll();
      }
    }
  }
}
