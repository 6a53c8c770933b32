package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The thin I/O layer: create-or-replace of any manifest, delete, get and list by labels, each
 * saying what it did. An object already carrying every desired field is left alone (no write, no
 * resourceVersion churn). Blocking (fabric8 calls): use from reconcile worker threads only.
 */
public final class ResourceOperator {
  private static final Set<String> MERGED_SPEC_KINDS = Set.of(OperatorConditions.KIND);
  private final KubernetesClient client;
  private final ResourceKinds kinds;
  private final KubernetesSerialization serialization;
  private final ServedApis served;

  public ResourceOperator(KubernetesClient client, ResourceKinds kinds) {
    this.client = client;
    this.kinds = kinds;
    this.serialization = client.getKubernetesSerialization();
    this.served = new ServedApis(client);
  }

  public ResourceKinds kinds() {
    return kinds;
  }

  /** What the API server serves (discovery), for checks made before anything is applied. */
  public ServedApis served() {
    return served;
  }

  /** Decides, on the very object version about to be replaced, whether the change may go ahead. */
  @FunctionalInterface
  public interface Guard {
    /** A refusal message, or empty to proceed. */
    Optional<String> check(JsonNode existing) throws ResourceException;
  }

  /**
   * Decides, on the very object version about to be replaced, whether it stays as it is (another
   * writer's to keep).
   */
  @FunctionalInterface
  public interface Keep {
    boolean keep(JsonNode existing) throws ResourceException;
  }

  /**
   * Says whether a write the object needs may happen now; a write held back is retried by a later
   * pass.
   */
  @FunctionalInterface
  public interface Gate {
    boolean mayWrite(String ref);
  }

  /**
   * Creates the object, or replaces the fields the agent owns when it differs, or leaves it
   * unchanged.
   */
  public ApplyOutcome apply(JsonNode desired) throws ResourceException {
    return apply(desired, null);
  }

  /**
   * As {@link #apply(JsonNode)}, but a change to an existing object is first put to {@code guard},
   * on the same read the update is conditioned on (resourceVersion), so a concurrent edit cannot
   * slip between check and write. A refusal is a {@link ResourceException} with code 422.
   */
  public ApplyOutcome apply(JsonNode manifest, Guard guard) throws ResourceException {
    return apply(manifest, guard, null);
  }

  /**
   * As {@link #apply(JsonNode, Guard)}; a create or update is first put to {@code gate} (once), and
   * answered {@link ApplyOutcome.Result#DEFERRED} without writing when it says not now.
   */
  public ApplyOutcome apply(JsonNode manifest, Guard guard, Gate gate) throws ResourceException {
    return apply(manifest, null, guard, gate);
  }

  /**
   * As {@link #apply(JsonNode, Guard, Gate)}; an existing object that differs is first put to
   * {@code keep}, on the same read, and answered {@link ApplyOutcome.Result#KEPT} without writing
   * (or guarding) when it says so.
   */
  public ApplyOutcome apply(JsonNode manifest, Keep keep, Guard guard, Gate gate)
      throws ResourceException {
    JsonNode desired = ServerForm.stored(manifest);
    String apiVersion = desired.path("apiVersion").asText();
    String kind = desired.path("kind").asText();
    String namespace = namespaceOf(apiVersion, kind, desired);
    String name = desired.path("metadata").path("name").asText();
    if ("CustomResourceDefinition".equals(kind)) {
      kinds.learn(desired);
    }
    boolean permitted = gate == null;
    for (int attempt = 0; ; attempt++) {
      try {
        Optional<JsonNode> existing = get(apiVersion, kind, namespace, name);
        if (existing.isEmpty()) {
          if (!permitted && !(permitted = gate.mayWrite(refOf(kind, namespace, name)))) {
            return new ApplyOutcome(ApplyOutcome.Result.DEFERRED, kind, namespace, name);
          }
          ops(apiVersion, kind, namespace).resource(toResource(desired, namespace)).create();
          return new ApplyOutcome(ApplyOutcome.Result.CREATED, kind, namespace, name);
        }
        JsonNode wanted = ServerForm.keepingAddedEntries(existing.get(), desired);
        if (Subset.contains(existing.get(), withoutStatus(wanted))) {
          return new ApplyOutcome(ApplyOutcome.Result.UNCHANGED, kind, namespace, name);
        }
        if (keep != null && keep.keep(existing.get())) {
          return new ApplyOutcome(ApplyOutcome.Result.KEPT, kind, namespace, name);
        }
        if (guard != null) {
          Optional<String> refusal = guard.check(existing.get());
          if (refusal.isPresent()) {
            throw new ResourceException(refusal.get(), 422, null);
          }
        }
        if (!permitted && !(permitted = gate.mayWrite(refOf(kind, namespace, name)))) {
          return new ApplyOutcome(ApplyOutcome.Result.DEFERRED, kind, namespace, name);
        }
        ObjectNode merged = overlay((ObjectNode) existing.get(), wanted);
        ops(apiVersion, kind, namespace).resource(toResource(merged, namespace)).update();
        return new ApplyOutcome(ApplyOutcome.Result.PATCHED, kind, namespace, name);
      } catch (KubernetesClientException e) {
        // A concurrent writer (or a create racing another) wins once; the retry re-reads and
        // decides again.
        if (e.getCode() == 409 && attempt == 0) {
          continue;
        }
        throw failure("apply", kind, namespace, name, e);
      }
    }
  }

  private static String refOf(String kind, String namespace, String name) {
    return new ApplyOutcome(ApplyOutcome.Result.UNCHANGED, kind, namespace, name).ref();
  }

  /** The object as JSON, empty when absent. */
  public Optional<JsonNode> get(String apiVersion, String kind, String namespace, String name)
      throws ResourceException {
    try {
      GenericKubernetesResource found = named(apiVersion, kind, namespace, name).get();
      return Optional.ofNullable(found).map(r -> serialization.convertValue(r, JsonNode.class));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw failure("get", kind, namespace, name, e);
    }
  }

  /** Deletes the object; UNCHANGED when it was already gone. */
  public ApplyOutcome delete(String apiVersion, String kind, String namespace, String name)
      throws ResourceException {
    String ns = kinds.namespaced(apiVersion, kind) ? namespace : null;
    try {
      List<?> deleted = named(apiVersion, kind, ns, name).delete();
      return new ApplyOutcome(
          deleted == null || deleted.isEmpty()
              ? ApplyOutcome.Result.UNCHANGED
              : ApplyOutcome.Result.DELETED,
          kind,
          ns,
          name);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return new ApplyOutcome(ApplyOutcome.Result.UNCHANGED, kind, ns, name);
      }
      throw failure("delete", kind, ns, name, e);
    }
  }

  /**
   * Objects of one kind carrying all {@code labels}, in every namespace (namespaced kinds) or
   * cluster-wide.
   */
  public List<JsonNode> list(String apiVersion, String kind, Map<String, String> labels)
      throws ResourceException {
    try {
      MixedOperation<
              GenericKubernetesResource,
              GenericKubernetesResourceList,
              Resource<GenericKubernetesResource>>
          op = client.genericKubernetesResources(kinds.context(apiVersion, kind));
      GenericKubernetesResourceList list =
          kinds.namespaced(apiVersion, kind)
              ? op.inAnyNamespace().withLabels(labels).list()
              : op.withLabels(labels).list();
      return list.getItems().stream()
          .map(r -> serialization.convertValue(r, JsonNode.class))
          .toList();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of(); // the kind is not served (yet): nothing of it can exist
      }
      throw failure("list", kind, null, labels.toString(), e);
    }
  }

  /** Every object of one kind in {@code namespace}; empty when the kind is not served. */
  public List<JsonNode> listIn(String apiVersion, String kind, String namespace)
      throws ResourceException {
    try {
      GenericKubernetesResourceList list =
          client
              .genericKubernetesResources(kinds.context(apiVersion, kind))
              .inNamespace(namespace)
              .list();
      return list.getItems().stream()
          .map(r -> serialization.convertValue(r, JsonNode.class))
          .toList();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of();
      }
      throw failure("list", kind, namespace, "", e);
    }
  }

  /**
   * Replaces only the status of an existing object (what a controller, or the simulated kubelet,
   * does).
   */
  public void updateStatus(JsonNode object) throws ResourceException {
    String apiVersion = object.path("apiVersion").asText();
    String kind = object.path("kind").asText();
    String namespace = namespaceOf(apiVersion, kind, object);
    try {
      ops(apiVersion, kind, namespace).resource(toResource(object, namespace)).updateStatus();
    } catch (KubernetesClientException e) {
      throw failure(
          "update status of", kind, namespace, object.path("metadata").path("name").asText(), e);
    }
  }

  private String namespaceOf(String apiVersion, String kind, JsonNode object) {
    return kinds.namespaced(apiVersion, kind)
        ? object.path("metadata").path("namespace").asText(null)
        : null;
  }

  private Resource<GenericKubernetesResource> named(
      String apiVersion, String kind, String namespace, String name) {
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        op = client.genericKubernetesResources(kinds.context(apiVersion, kind));
    return namespace != null && kinds.namespaced(apiVersion, kind)
        ? op.inNamespace(namespace).withName(name)
        : op.withName(name);
  }

  private NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      ops(String apiVersion, String kind, String namespace) {
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        op = client.genericKubernetesResources(kinds.context(apiVersion, kind));
    return namespace != null ? op.inNamespace(namespace) : op;
  }

  private GenericKubernetesResource toResource(JsonNode node, String namespace) {
    GenericKubernetesResource resource =
        serialization.convertValue(node, GenericKubernetesResource.class);
    if (namespace != null) {
      resource.getMetadata().setNamespace(namespace);
    }
    return resource;
  }

  /**
   * The existing object with the desired top-level fields replacing its own and desired
   * labels/annotations merged in.
   */
  static ObjectNode overlay(ObjectNode existing, JsonNode desired) {
    ObjectNode merged = existing.deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getKey().equals("metadata") || field.getKey().equals("status")) {
        continue;
      }
      JsonNode current = merged.get(field.getKey());
      if (MERGED_SPEC_KINDS.contains(desired.path("kind").asText())
          && field.getKey().equals("spec")
          && current != null
          && current.isObject()
          && field.getValue().isObject()) {
        // The operator writes spec.conditions and users spec.overrides: only the agent's own fields
        // are replaced.
        ((ObjectNode) current).setAll((ObjectNode) field.getValue().deepCopy());
      } else {
        merged.set(field.getKey(), field.getValue().deepCopy());
      }
    }
    ObjectNode meta = merged.withObjectProperty("metadata");
    for (String map : List.of("labels", "annotations")) {
      JsonNode wanted = desired.path("metadata").path(map);
      if (wanted.isObject()) {
        meta.withObjectProperty(map).setAll((ObjectNode) wanted.deepCopy());
      }
    }
    JsonNode owners = desired.path("metadata").path("ownerReferences");
    if (owners.isArray()) {
      meta.set("ownerReferences", owners.deepCopy());
    }
    return merged;
  }

  private static JsonNode withoutStatus(JsonNode desired) {
    if (!desired.has("status")) {
      return desired;
    }
    ObjectNode copy = desired.deepCopy();
    copy.remove("status");
    return copy;
  }

  private static ResourceException failure(
      String verb, String kind, String namespace, String name, KubernetesClientException e) {
    String where = kind + "/" + (namespace == null ? "" : namespace + "/") + name;
    String detail =
        e.getStatus() != null && e.getStatus().getMessage() != null
            ? e.getStatus().getMessage()
            : e.getMessage();
    return new ResourceException("could not " + verb + " " + where + ": " + detail, e.getCode(), e);
  }
}
