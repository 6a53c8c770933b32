package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.fbc.PackageRequirement;
import io.olmstead.olmcore.resolver.Problem.Var;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Builds the {@link Problem} for one namespace: installed operators, one subscription at a time,
 * and (lazily) each chosen bundle's dependencies with candidates in OLM's preference order:
 * installed first, then the dependent's own catalog, then higher catalog priority, then default
 * channels, then nearest the channel head.
 */
final class ProblemBuilder implements Problem.Expander {
  /**
   * A subscription's variable, the installed bundle it owns (if any) and its candidate constraint.
   */
  record SubscriptionVar(
      SubscriptionRequest request,
      String channel,
      Var var,
      Var installed,
      Problem.Constraint requires) {}

  private static final Version ZERO = Version.of(0, 0, 0);

  final Problem problem = new Problem(this);
  final List<SubscriptionVar> subscriptions = new ArrayList<>();
  private final List<CatalogSource> catalogsByPriority;
  private final Map<String, CatalogSource> catalogsByName = new HashMap<>();
  private final Function<CatalogSource, CatalogIndex> indexes;
  private final Map<String, Map<Bundle, Var>> bundleVars = new HashMap<>();
  private final Map<String, Boolean> contestedApis = new HashMap<>();
  private final List<Var> installedVars = new ArrayList<>();
  private final Map<String, Candidates> candidateMemo = new HashMap<>();
  private final Candidates.Vars lookup =
      (ref, create) ->
          ref.var() != null
              ? ref.var()
              : create
                  ? bundleVar(ref.source(), ref.channel(), ref.bundle())
                  : existingVar(ref.source(), ref.bundle());
  private String hardError;

  ProblemBuilder(List<CatalogSource> catalogs, Function<CatalogSource, CatalogIndex> indexes) {
    this.indexes = indexes;
    List<CatalogSource> sorted = new ArrayList<>();
    for (CatalogSource c : catalogs) {
      if (c != null
          && c.name() != null
          && c.catalog() != null
          && catalogsByName.putIfAbsent(c.name(), c) == null) {
        sorted.add(c);
      }
    }
    sorted.sort(
        Comparator.comparingInt((CatalogSource c) -> -c.priority())
            .thenComparing(CatalogSource::name));
    this.catalogsByPriority = List.copyOf(sorted);
  }

  /** An error that is not a constraint conflict (upstream returns it as a plain error), or null. */
  String hardError() {
    return hardError;
  }

  /**
   * Adds the installed operators; those no subscription owns must stay (a mandatory constraint).
   */
  void addInstalled(List<InstalledOperator> installed, List<SubscriptionRequest> requests) {
    for (InstalledOperator op : installed) {
      if (op == null || op.bundleName() == null) {
        continue;
      }
      Bundle bundle = findInstalledBundle(op);
      Version version =
          bundle != null && bundle.version().isPresent() ? bundle.version().get() : ZERO;
      Var v =
          problem.addBundleVar(
              op.bundleName(),
              op.packageName(),
              bundle,
              op.catalog(),
              op.channel(),
              true,
              version,
              bundle == null ? List.of() : CatalogIndex.subjects(bundle.providedGvks()));
      installedVars.add(v);
      boolean owned =
          requests.stream()
              .anyMatch(
                  r ->
                      r != null
                          && op.packageName() != null
                          && op.packageName().equals(r.packageName()));
      if (!owned) {
        problem.addMandatory(
            v,
            "clusterserviceversion "
                + op.bundleName()
                + " exists and is not referenced by a subscription");
      }
    }
  }

  private Bundle findInstalledBundle(InstalledOperator op) {
    CatalogSource own = op.catalog() == null ? null : catalogsByName.get(op.catalog());
    if (own != null) {
      Bundle b = own.catalog().bundle(op.packageName(), op.bundleName()).orElse(null);
      if (b != null) {
        return b;
      }
    }
    for (CatalogSource c : catalogsByPriority) {
      Bundle b = c.catalog().bundle(op.packageName(), op.bundleName()).orElse(null);
      if (b != null) {
        return b;
      }
    }
    return null;
  }

  void addSubscription(SubscriptionRequest req) {
    String name = req.name() == null ? "" : req.name();
    Var subVar = problem.addSubscriptionVar(name);
    Var installed =
        installedVars.stream()
            .filter(v -> v.packageName != null && v.packageName.equals(req.packageName()))
            .findFirst()
            .orElse(null);
    String problemText = null;
    List<Candidates.Ref> candidates = new ArrayList<>();
    CatalogSource source = req.catalog() == null ? null : catalogsByName.get(req.catalog());
    CatalogPackage pkg =
        source == null
            ? null
            : source.catalog().pkg(req.packageName()).filter(CatalogPackage::usable).orElse(null);
    String channelName =
        req.channel() == null || req.channel().isEmpty()
            ? (pkg == null ? "" : pkg.defaultChannel())
            : req.channel();
    ChannelGraph graph = pkg == null ? null : pkg.channels().get(channelName);
    String where = " in the catalog referenced by subscription " + name;
    if (source == null) {
      problemText =
          "no operators found from catalog "
              + req.catalog()
              + " referenced by subscription "
              + name;
    } else if (pkg == null) {
      problemText = "no operators found in package " + req.packageName() + where;
    } else if (graph == null) {
      problemText =
          "no operators found in channel "
              + channelName
              + " of package "
              + req.packageName()
              + where;
    } else if (!graph.valid()) {
      ChannelOrder.Result order = ChannelOrder.sort(pkg.name(), channelName, graph.entries());
      hardError =
          order
              .failure()
              .orElse(
                  "channel \""
                      + channelName
                      + "\" of package \""
                      + pkg.name()
                      + "\" is invalid: "
                      + String.join("; ", graph.errors()));
    } else if (installed != null) {
      for (ChannelEntry e :
          graph.successorsOf(bundleNameOf(installed), installed.version, req.maxVersion())) {
        addCandidate(candidates, source, pkg, channelName, e.name());
      }
      candidates.add(new Candidates.Ref(installed, null, null, null));
    } else if (req.startingBundle() != null && !req.startingBundle().isEmpty()) {
      if (!startable(graph, req.startingBundle()) || pkg.bundle(req.startingBundle()).isEmpty()) {
        problemText =
            "no operators found with name "
                + req.startingBundle()
                + " in channel "
                + channelName
                + " of package "
                + req.packageName()
                + where;
      } else if (withinCeiling(pkg.bundle(req.startingBundle()).get(), req.maxVersion())) {
        addCandidate(candidates, source, pkg, channelName, req.startingBundle());
      }
    } else {
      for (ChannelEntry e : graph.candidatesInOrder()) {
        if (pkg.bundle(e.name()).filter(b -> withinCeiling(b, req.maxVersion())).isPresent()) {
          addCandidate(candidates, source, pkg, channelName, e.name());
        }
      }
    }
    Problem.Constraint requires = null;
    if (problemText == null) {
      Candidates lazy = new Candidates(candidates, lookup);
      requires =
          problem.addDependency(
              subVar,
              lazy,
              () ->
                  lazy.size() == 0
                      ? "no operators found matching the criteria of subscription " + name
                      : "subscription " + name + " requires " + describe(lazy.all()));
    }
    problem.addMandatory(subVar, "subscription " + name + " exists");
    if (problemText != null) {
      problem.addProhibited(subVar, problemText);
    }
    subscriptions.add(new SubscriptionVar(req, channelName, subVar, installed, requires));
  }

  private static String bundleNameOf(Var installed) {
    return installed.name;
  }

  /**
   * startingCSV may name any entry on the replaces chain or one another entry skips by name; an
   * entry only a skipRange covers is not installable by it.
   */
  private static boolean startable(ChannelGraph graph, String bundle) {
    if (graph.entry(bundle).isEmpty()) {
      return false;
    }
    if (graph.candidatesInOrder().stream().anyMatch(e -> e.name().equals(bundle))) {
      return true;
    }
    return graph.entries().stream().anyMatch(e -> e.skips().contains(bundle));
  }

  private static boolean withinCeiling(Bundle b, Version ceiling) {
    return ceiling == null || b.version().map(v -> v.compareTo(ceiling) <= 0).orElse(false);
  }

  private static void addCandidate(
      List<Candidates.Ref> out,
      CatalogSource source,
      CatalogPackage pkg,
      String channel,
      String bundleName) {
    pkg.bundle(bundleName).ifPresent(b -> out.add(new Candidates.Ref(null, source, channel, b)));
  }

  private Var existingVar(CatalogSource source, Bundle b) {
    Map<Bundle, Var> ofCatalog = bundleVars.get(source.name());
    return ofCatalog == null ? null : ofCatalog.get(b);
  }

  /**
   * The variable of a catalog bundle. One per bundle and catalog even when several channels carry
   * it (they are the same bundle, and one bundle per package holds anyway); it keeps the channel it
   * was first offered in, which is the subscription's channel or the most preferred one.
   */
  private Var bundleVar(CatalogSource source, String channel, Bundle b) {
    Map<Bundle, Var> ofCatalog =
        bundleVars.computeIfAbsent(source.name(), k -> new IdentityHashMap<>());
    Var v = ofCatalog.get(b);
    if (v == null) {
      List<String> contested = new ArrayList<>(2);
      for (String subject : indexes.apply(source).gvkSubjects(b)) {
        if (contested(subject)) {
          contested.add(subject);
        }
      }
      v =
          problem.addBundleVar(
              b.name(),
              b.packageName(),
              b,
              source.name(),
              channel,
              false,
              b.version().orElse(null),
              contested);
      ofCatalog.put(b, v);
    }
    return v;
  }

  /**
   * Whether more than one package (in any catalog, or installed) provides the API. Only then can
   * its one-provider rule bite: bundles of one package already exclude each other, so uncontested
   * APIs get no group.
   */
  private boolean contested(String subject) {
    return contestedApis.computeIfAbsent(
        subject,
        s -> {
          Set<String> packages = new HashSet<>();
          for (CatalogSource c : catalogsByPriority) {
            packages.addAll(indexes.apply(c).packagesProviding(s));
          }
          for (Var v : installedVars) {
            if (v.packageName != null
                && v.groups.stream().anyMatch(g -> !g.isPackage && g.subject.equals(s))) {
              packages.add(v.packageName);
            }
          }
          return packages.size() > 1;
        });
  }

  private static String describe(List<Var> candidates) {
    if (candidates.size() == 1) {
      return candidates.get(0).id();
    }
    List<String> ids = candidates.stream().map(Var::id).toList();
    return "at least one of "
        + String.join(", ", ids.subList(0, ids.size() - 1))
        + " or "
        + ids.get(ids.size() - 1);
  }

  @Override
  public void expand(Var v) {
    if (v.bundle == null) {
      return;
    }
    for (PackageRequirement req : v.bundle.requiredPackages()) {
      problem.addDependency(
          v,
          packageCandidates(v, req),
          () ->
              "bundle "
                  + v.bundleName()
                  + " requires an operator with package: "
                  + req.packageName()
                  + " and with version in range: "
                  + req.versionRange());
    }
    for (Gvk gvk : v.bundle.requiredGvks()) {
      problem.addDependency(
          v,
          gvkCandidates(v, gvk),
          () ->
              "bundle "
                  + v.bundleName()
                  + " requires an operator providing an API with group: "
                  + gvk.group()
                  + ", version: "
                  + gvk.version()
                  + ", kind: "
                  + gvk.kind());
    }
  }

  private Candidates packageCandidates(Var dependent, PackageRequirement req) {
    String key =
        "p\u0000"
            + dependent.catalog
            + "\u0000"
            + dependent.packageName
            + "\u0000"
            + req.packageName()
            + "\u0000"
            + req.versionRange();
    return candidateMemo.computeIfAbsent(
        key,
        k -> {
          List<Candidates.Ref> out = new ArrayList<>();
          VersionRange range = parseRange(req.versionRange());
          if (req.packageName() == null
              || req.packageName().equals(dependent.packageName)
              || range == null) {
            return new Candidates(out, lookup);
          }
          for (Var c : installedVars) {
            if (req.packageName().equals(c.packageName)
                && c.version != null
                && range.contains(c.version)) {
              out.add(new Candidates.Ref(c, null, null, null));
            }
          }
          for (CatalogSource source : catalogOrder(dependent.catalog)) {
            for (CatalogIndex.Candidate c :
                indexes.apply(source).packageCandidates(req.packageName())) {
              Version version = c.bundle().version().orElse(null);
              if (version != null && range.contains(version) && !isInstalled(c.bundle())) {
                out.add(new Candidates.Ref(null, source, c.channel(), c.bundle()));
              }
            }
          }
          return new Candidates(out, lookup);
        });
  }

  private Candidates gvkCandidates(Var dependent, Gvk gvk) {
    String key = "g\u0000" + dependent.catalog + "\u0000" + dependent.packageName + "\u0000" + gvk;
    return candidateMemo.computeIfAbsent(
        key,
        k -> {
          List<Candidates.Ref> out = new ArrayList<>();
          for (Var c : installedVars) {
            if (c.bundle != null
                && !Objects.equals(c.packageName, dependent.packageName)
                && c.bundle.providedGvks().contains(gvk)) {
              out.add(new Candidates.Ref(c, null, null, null));
            }
          }
          for (CatalogSource source : catalogOrder(dependent.catalog)) {
            for (CatalogIndex.Candidate c : indexes.apply(source).gvkCandidates(gvk)) {
              if (!c.bundle().packageName().equals(dependent.packageName)
                  && !isInstalled(c.bundle())) {
                out.add(new Candidates.Ref(null, source, c.channel(), c.bundle()));
              }
            }
          }
          return new Candidates(out, lookup);
        });
  }

  /**
   * The installed copy of a bundle is its candidate; offering the catalog copy too would "install"
   * it again.
   */
  private boolean isInstalled(Bundle b) {
    for (Var v : installedVars) {
      if (b.name().equals(bundleNameOf(v)) && b.packageName().equals(v.packageName)) {
        return true;
      }
    }
    return false;
  }

  private List<CatalogSource> catalogOrder(String preferred) {
    CatalogSource first = preferred == null ? null : catalogsByName.get(preferred);
    if (first == null) {
      return catalogsByPriority;
    }
    List<CatalogSource> order = new ArrayList<>(catalogsByPriority.size());
    order.add(first);
    catalogsByPriority.stream().filter(c -> c != first).forEach(order::add);
    return order;
  }

  private static VersionRange parseRange(String text) {
    try {
      return VersionRange.parse(text == null || text.isBlank() ? ">=0.0.0-0" : text);
    } catch (VersionException | RuntimeException e) {
      // An unparsable range matches nothing: the dependency then cannot be met, which the
      // explanation names.
      return null;
    }
  }
}
