package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.WorkloadStatus;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.lifecycle.CsvObservation;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvPhaseRules;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.UpgradeableCheck;
import io.olmstead.olmcore.resolver.CatalogSource;
import io.olmstead.olmcore.resolver.InstalledOperator;
import io.olmstead.olmcore.resolver.Resolution;
import io.olmstead.olmcore.resolver.ResolvedBundle;
import io.olmstead.olmcore.resolver.Resolver;
import io.olmstead.olmcore.resolver.SubscriptionRequest;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile pass over one namespace, as named steps: observe what is installed, remove what
 * left the desired state, resolve every subscription of the namespace together with olm-core,
 * decide each subscription's step, drive it, report. Returns what is left to do, so the caller
 * knows when to queue the namespace again.
 */
final class NamespacePass {
  private static final Logger LOG = LoggerFactory.getLogger(NamespacePass.class);

  private final ResourceOperator resources;
  private final CatalogProvider catalogs;
  private final StatusBoard board;
  private final Function<String, String> approvals;
  private final Resolver resolver = new Resolver();
  private final ClusterObserver observer;
  private final Cleanup cleanup;
  private final BundleInstaller installer;
  private final OlmCoexistence olm;
  private final Runnable operatorConditionsServed;

  // set by a pass when a drift restore was held back by its backoff (passes of one namespace never
  // overlap, but
  // passes of different namespaces do: hence per thread)

  NamespacePass(
      ResourceOperator resources,
      CatalogProvider catalogs,
      StatusBoard board,
      Function<String, String> approvals,
      Runnable operatorConditionsServed) {
    this.resources = resources;
    this.operatorConditionsServed = operatorConditionsServed;
    this.catalogs = catalogs;
    this.board = board;
    this.approvals = approvals;
    this.observer = new ClusterObserver(resources);
    this.cleanup = new Cleanup(resources);
    this.installer = new BundleInstaller(resources, cleanup, catalogs::content);
    this.olm = new OlmCoexistence(resources);
  }

  ClusterObserver observer() {
    return observer;
  }

  /** Reconciles {@code namespace} towards {@code desired}. */
  PassOutcome run(String namespace, List<SubscriptionToReconcile> wanted) throws ResourceException {
    Map<String, ObservedSubscription> observed = observer.observe(namespace);
    removeUndesired(namespace, wanted, observed);
    // packages OLM manages here are refused before anything (namespace, CRD, objects) is written
    List<SubscriptionToReconcile> desired = olm.allowed(namespace, wanted, board);
    if (desired.isEmpty()) {
      return PassOutcome.DONE;
    }
    ensureNamespace(namespace);
    if (!ensureOperatorConditionCrd()) {
      return PassOutcome.SETTLING;
    }
    operatorConditionsServed.run();
    Map<String, SubscriptionToReconcile> subs = new LinkedHashMap<>();
    observed.values().stream()
        .filter(
            o ->
                o.dependencyOf().isPresent()
                    && desired.stream().noneMatch(d -> d.name().equals(o.name())))
        .forEach(o -> impliedFrom(o, namespace, desired).ifPresent(d -> subs.put(d.name(), d)));
    desired.forEach(d -> subs.put(d.name(), d));
    PackageOwners.refuseSecondOwners(namespace, desired, observed, subs, board);
    Map<String, Catalog> loaded = loadCatalogs(subs.values());
    Map<String, String> resolutionErrors = new LinkedHashMap<>();
    Resolution resolution = resolve(subs, observed, loaded, resolutionErrors);
    Map<String, String> dependencyOf = new LinkedHashMap<>();
    Map<String, Bundle> dependencyBundles = new LinkedHashMap<>();
    addDependencies(namespace, resolution, subs, desired, dependencyOf, dependencyBundles);
    boolean settling = false;
    boolean backingOff = false;
    boolean unpackFailed = false;
    Map<String, String> live = new LinkedHashMap<>();
    subs.keySet().forEach(name -> live.put(ManagedLabels.value(name), name));
    observed.keySet().forEach(name -> live.putIfAbsent(ManagedLabels.value(name), name));
    for (SubscriptionToReconcile sub : subs.values()) {
      ObservedSubscription obs =
          observed.getOrDefault(sub.name(), new ObservedSubscription(sub.name(), List.of()));
      Optional<Bundle> candidate =
          resolution == null
              ? Optional.empty()
              : Optional.ofNullable(resolution.bySubscription().get(sub.name()))
                  .map(ResolvedBundle::bundle)
                  .or(() -> Optional.ofNullable(dependencyBundles.get(sub.name())));
      String error = resolutionErrors.get(sub.name());
      JsonNode condition = obs.installed().map(ObservedBundle::operatorCondition).orElse(null);
      Decision decision =
          SubscriptionDecider.decide(
              sub,
              obs,
              candidate,
              error,
              approvals.apply(sub.name()),
              UpgradeableCheck.evaluate(
                  condition == null ? null : installer.mirrorConditions(condition)),
              rollback(sub, obs, loaded.get(sub.catalog())));
      String parent = dependencyOf.get(sub.name());
      if (parent != null) {
        decision =
            DependencyApproval.gate(
                decision,
                candidate.orElse(null),
                subs.get(parent),
                observed.getOrDefault(parent, new ObservedSubscription(parent, List.of())),
                Optional.ofNullable(resolution.bySubscription().get(parent))
                    .map(ResolvedBundle::bundle),
                approvals.apply(parent));
      }
      Map<String, String> others = new LinkedHashMap<>(live);
      others.remove(ManagedLabels.value(sub.name()));
      Executed done =
          execute(
              sub,
              obs,
              decision,
              loaded.get(sub.catalog()),
              candidate,
              dependencyOf.get(sub.name()),
              others);
      settling |= done.settling();
      backingOff |= done.deferred();
      unpackFailed |= done.unpackFailed();
    }
    if (settling) {
      return PassOutcome.SETTLING;
    }
    if (backingOff) {
      return PassOutcome.BACKING_OFF;
    }
    boolean catalogMissing = subs.values().stream().anyMatch(s -> !loaded.containsKey(s.catalog()));
    if (catalogMissing) {
      return PassOutcome.WAITING_FOR_CATALOG;
    }
    return unpackFailed ? PassOutcome.BUNDLE_UNPACK_FAILED : PassOutcome.DONE;
  }

  /**
   * What driving one subscription left to do: {@code settling}, another look soon; {@code
   * deferred}, the installer is backing off; {@code unpackFailed}, its bundle could not be
   * unpacked.
   */
  private record Executed(boolean settling, boolean deferred, boolean unpackFailed) {
    static final Executed NOTHING = new Executed(false, false, false);
  }

  private Executed execute(
      SubscriptionToReconcile sub,
      ObservedSubscription obs,
      Decision decision,
      Catalog catalog,
      Optional<Bundle> candidate,
      String dependencyOf,
      Map<String, String> others)
      throws ResourceException {
    if (decision.bundle() == null) {
      CsvStatus pending =
          CsvPhaseRules.next(
              CsvObservation.in(CsvPhase.NONE).withUnmetRequirements(decision.message()));
      board.publish(StatusBoard.status(sub, null, null, pending, decision, List.of()));
      return Executed.NOTHING;
    }
    Optional<Bundle> bundle =
        catalog == null ? Optional.empty() : catalog.bundle(sub.packageName(), decision.bundle());
    if (bundle.isEmpty()) {
      CsvStatus lost =
          CsvPhaseRules.next(
              CsvObservation.in(CsvPhase.NONE)
                  .withUnmetRequirements(
                      "bundle " + decision.bundle() + " is not in catalog " + sub.catalog()));
      board.publish(
          StatusBoard.status(sub, obs.installed().orElse(null), null, lost, decision, List.of()));
      return Executed.NOTHING;
    }
    ObservedBundle previous =
        obs.bundles().stream()
            .filter(b -> b.bundle().equals(decision.bundle()))
            .findFirst()
            .orElse(null);
    ObservedBundle replaces =
        decision.moves()
            ? obs.installed().filter(b -> !b.bundle().equals(decision.bundle())).orElse(null)
            : obs.bundles().stream()
                .filter(b -> !b.bundle().equals(decision.bundle()))
                .findFirst()
                .orElse(null);
    String channel = previous != null ? previous.channel() : sub.channel();
    String depOf = dependencyOf != null ? dependencyOf : obs.dependencyOf().orElse(null);
    InstallTarget target = new InstallTarget(sub, bundle.get(), channel, previous, replaces, depOf);
    ObservedBundle installed = obs.installed().orElse(null);
    Bundle heading = decision.moves() ? bundle.get() : null;
    DriveResult result =
        installer.drive(
            target,
            others,
            progress ->
                board.publish(
                    StatusBoard.status(sub, installed, heading, progress, decision, List.of())));
    if (result.conflict() != null) {
      board.publish(StatusBoard.conflict(sub, installed, bundle.get(), result.conflict()));
      return Executed
          .NOTHING; // nothing progresses until the owner goes: its removal queues the namespace
      // again
    }
    List<ApplyOutcome> written = result.restored().stream().filter(ApplyOutcome::changed).toList();
    if (!written.isEmpty()) {
      LOG.warn(
          "subscription {}/{}: restored drifted objects {}",
          sub.namespace(),
          sub.name(),
          written.stream().map(ApplyOutcome::ref).toList());
    }
    boolean unpackFailed = result.status().reason() == CsvReason.BUNDLE_UNPACK_FAILED;
    ObservedBundle nowInstalled =
        result.status().phase() == CsvPhase.SUCCEEDED ? asInstalled(target) : installed;
    board.publish(
        StatusBoard.withCondition(
                StatusBoard.status(
                    sub, nowInstalled, heading, result.status(), decision, result.restored()),
                installer.schemaWarnings(sub.name(), bundle.get().name()))
            .withCsv(result.csv()));
    if (result.status().phase() == CsvPhase.SUCCEEDED && decision.moves()) {
      LOG.info(
          "subscription {}/{}: {} succeeded", sub.namespace(), sub.name(), bundle.get().name());
      // another edge may follow
      return new Executed(candidate.isPresent(), result.deferred(), unpackFailed);
    }
    return new Executed(result.settling(), result.deferred(), unpackFailed);
  }

  /**
   * Where a bundle above maxVersion would roll back to, with olm-core's CRD verdict on it (reads
   * the cluster).
   */
  private Rollback rollback(SubscriptionToReconcile sub, ObservedSubscription obs, Catalog catalog)
      throws ResourceException {
    if (catalog == null || Rollback.aboveCeiling(sub, obs).isEmpty()) {
      return null;
    }
    Optional<Bundle> target = Rollback.target(catalog, sub);
    return target.isEmpty()
        ? Rollback.NO_TARGET
        : Rollback.to(target.get(), installer.crdProblem(target.get(), sub).orElse(null));
  }

  private void removeUndesired(
      String namespace,
      List<SubscriptionToReconcile> desired,
      Map<String, ObservedSubscription> observed)
      throws ResourceException {
    for (ObservedSubscription obs : List.copyOf(observed.values())) {
      boolean wanted = desired.stream().anyMatch(d -> d.name().equals(obs.name()));
      if (!wanted && (obs.dependencyOf().isEmpty() || desired.isEmpty())) {
        cleanup.remove(obs, namespace);
        observed.remove(obs.name());
        board.removed(obs.name());
      }
    }
  }

  private Resolution resolve(
      Map<String, SubscriptionToReconcile> subs,
      Map<String, ObservedSubscription> observed,
      Map<String, Catalog> loaded,
      Map<String, String> errors) {
    List<SubscriptionRequest> requests = new ArrayList<>();
    List<InstalledOperator> installed = new ArrayList<>();
    for (SubscriptionToReconcile sub : subs.values()) {
      if (!loaded.containsKey(sub.catalog())) {
        errors.put(sub.name(), "catalog " + sub.catalog() + " is not available yet");
        continue;
      }
      Version max = null;
      try {
        max =
            sub.maxVersion() == null || sub.maxVersion().isBlank()
                ? null
                : Version.parse(sub.maxVersion());
      } catch (VersionException e) {
        errors.put(
            sub.name(), "maxVersion " + sub.maxVersion() + " is not a version: " + e.getMessage());
        continue;
      }
      requests.add(
          new SubscriptionRequest(
              sub.name(),
              sub.catalog(),
              sub.packageName(),
              sub.channel(),
              sub.startingBundle(),
              max));
      Optional.ofNullable(observed.get(sub.name()))
          .flatMap(ObservedSubscription::current)
          .ifPresent(
              b ->
                  installed.add(
                      new InstalledOperator(
                          b.bundle(), b.packageName(), b.catalog(), b.channel())));
    }
    List<CatalogSource> sources =
        loaded.entrySet().stream()
            .map(e -> new CatalogSource(e.getKey(), 0, e.getValue()))
            .toList();
    Resolution resolution = resolver.resolve(sources, requests, installed);
    if (!resolution.satisfiable()) {
      requests.forEach(r -> errors.put(r.name(), resolution.message()));
      return null;
    }
    return resolution;
  }

  /**
   * Bundles the resolver added for dependencies become implied subscriptions, as OLM creates them.
   */
  private void addDependencies(
      String namespace,
      Resolution resolution,
      Map<String, SubscriptionToReconcile> subs,
      List<SubscriptionToReconcile> desired,
      Map<String, String> dependencyOf,
      Map<String, Bundle> dependencyBundles) {
    if (resolution == null) {
      return;
    }
    for (ResolvedBundle dep : resolution.dependencies()) {
      String requiredBy =
          resolution.bySubscription().entrySet().stream()
              .filter(
                  e ->
                      e.getValue().bundle().requiredPackages().stream()
                          .anyMatch(r -> r.packageName().equals(dep.bundle().packageName())))
              .map(Map.Entry::getKey)
              .findFirst()
              .orElse(desired.get(0).name());
      SubscriptionToReconcile parent = subs.get(requiredBy);
      String name =
          SubscriptionNames.implied(dep.bundle().packageName(), dep.channel(), dep.catalog());
      SubscriptionToReconcile implied =
          new SubscriptionToReconcile(
              name,
              dep.catalog(),
              parent == null ? null : parent.catalogDigest(),
              dep.bundle().packageName(),
              dep.channel(),
              namespace,
              NamespaceTargets.of(requiredBy, desired),
              SubscriptionToReconcile.Approval.AUTOMATIC,
              dep.bundle().name(),
              null,
              null,
              false,
              0,
              null);
      subs.putIfAbsent(name, implied);
      dependencyOf.put(name, requiredBy);
      dependencyBundles.put(name, dep.bundle());
      LOG.info(
          "subscription {}/{}: dependency {} resolved to {}",
          namespace,
          requiredBy,
          name,
          dep.bundle().name());
    }
  }

  private Optional<SubscriptionToReconcile> impliedFrom(
      ObservedSubscription obs, String namespace, List<SubscriptionToReconcile> desired) {
    return obs.current()
        .map(
            b ->
                new SubscriptionToReconcile(
                    obs.name(),
                    b.catalog(),
                    desired.stream()
                        .filter(d -> d.catalog().equals(b.catalog()))
                        .map(SubscriptionToReconcile::catalogDigest)
                        .filter(Objects::nonNull)
                        .findFirst()
                        .orElse(null),
                    b.packageName(),
                    b.channel(),
                    namespace,
                    NamespaceTargets.of(obs.dependencyOf().orElse(null), desired),
                    SubscriptionToReconcile.Approval.AUTOMATIC,
                    null,
                    null,
                    null,
                    false,
                    0,
                    null));
  }

  private Map<String, Catalog> loadCatalogs(Collection<SubscriptionToReconcile> subs) {
    Map<String, Catalog> loaded = new LinkedHashMap<>();
    for (SubscriptionToReconcile sub : subs) {
      if (!loaded.containsKey(sub.catalog())) {
        catalogs
            .catalog(sub.catalog(), sub.catalogDigest())
            .ifPresent(c -> loaded.put(sub.catalog(), c));
      }
    }
    return loaded;
  }

  private void ensureNamespace(String namespace) throws ResourceException {
    if (resources.get("v1", "Namespace", null, namespace).isEmpty()) {
      ObjectNode ns =
          JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Namespace");
      ns.putObject("metadata").put("name", namespace);
      resources.apply(ns);
    }
  }

  /**
   * Creates the OperatorCondition CRD only where it is missing; OLM's own CRD (not labelled ours)
   * is never written.
   */
  private boolean ensureOperatorConditionCrd() throws ResourceException {
    Optional<JsonNode> existing =
        resources.get(
            "apiextensions.k8s.io/v1",
            "CustomResourceDefinition",
            null,
            OperatorConditions.CRD_NAME);
    if (existing.isEmpty() || OperatorConditions.ours(existing.get())) {
      resources.apply(OperatorConditions.crd());
      existing =
          resources.get(
              "apiextensions.k8s.io/v1",
              "CustomResourceDefinition",
              null,
              OperatorConditions.CRD_NAME);
    }
    return WorkloadStatus.established(existing.orElse(null));
  }

  private static ObservedBundle asInstalled(InstallTarget t) {
    return new ObservedBundle(
        t.subscription().name(),
        t.bundle().name(),
        CsvPhase.SUCCEEDED,
        t.bundle().packageName(),
        t.subscription().catalog(),
        t.channel(),
        t.bundle().versionText(),
        t.dependencyOf(),
        false,
        List.of(),
        List.of(),
        null);
  }
}
