package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * OLM's serving-certificate objects for one deployment that serves webhooks or APIServices ({@code
 * install/certresources.go}): the Service, the Secret that holds the certificate (filled in by the
 * agent, which generates the key), the Role/RoleBinding that let the pod read it, the
 * auth-delegator and auth-reader bindings, and the two mounts of the Secret into the deployment.
 */
public final class CertPlan {
  /** How long a generated certificate is valid (OLM's DefaultCertValidFor). */
  public static final Duration VALID_FOR = Duration.ofDays(730);

  /** How long before expiry a certificate is replaced (OLM's DefaultCertMinFresh). */
  public static final Duration MIN_FRESH = Duration.ofDays(1);

  /** The Secret key holding the CA certificate (PEM), OLM's name. */
  public static final String CA_PEM_KEY = "olmCAKey";

  /**
   * Annotation with the SHA-256 of the CA PEM, on the Secret and on the pod template (forces a
   * rollout).
   */
  public static final String CA_HASH_ANNOTATION = "olmcahash";

  /**
   * Annotation on a planned Secret: the Service whose serving certificate the agent must put in it.
   */
  public static final String SERVING_CERT_FOR = "olmstead.io/serving-cert-for";

  /** The organisation in generated certificates (OLM's). */
  public static final String ORGANIZATION = "Red Hat, Inc.";

  static final String WEBHOOK_CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";
  static final String APISERVICE_CERT_DIR = "/apiserver.local.config/certificates";
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final int MAX_OBJECT_NAME = 253;

  private CertPlan() {}

  /** OLM's Service name for a deployment. */
  public static String serviceName(String deploymentName) {
    return deploymentName.replace('.', '-') + "-service";
  }

  /** OLM's Secret name for a Service. */
  public static String secretName(String serviceName) {
    return serviceName + "-cert";
  }

  /**
   * The auth-delegator ClusterRoleBinding of a Service: {@code
   * <service>.<namespace>-system:auth-delegator}. OLM names it {@code
   * <service>-system:auth-delegator}, so two installs of one package in two namespaces would share
   * (and overwrite, and on uninstall delete) one binding; with the namespace each install has its
   * own. Neither part holds a '.', so the name is unambiguous; bounded to 253 characters ({@link
   * #bounded}).
   */
  public static String authDelegatorBindingName(String serviceName, String namespace) {
    return bounded(serviceName + "." + namespace, "-system:auth-delegator");
  }

  /**
   * The kube-system RoleBinding of a Service: {@code <service>.<namespace>-auth-reader} (OLM: no
   * namespace).
   */
  public static String authReaderBindingName(String serviceName, String namespace) {
    return bounded(serviceName + "." + namespace, "-auth-reader");
  }

  /**
   * {@code base + suffix} when it fits in 253 characters (an object name); else the base cut short
   * and followed by {@code -} and 8 hex characters of its SHA-256, so that distinct bases keep
   * distinct names.
   */
  static String bounded(String base, String suffix) {
    if (base.length() + suffix.length() <= MAX_OBJECT_NAME) {
      return base + suffix;
    }
    String hash = HexFormat.of().formatHex(sha256(base), 0, 4);
    return base.substring(0, MAX_OBJECT_NAME - suffix.length() - hash.length() - 1)
        + "-"
        + hash
        + suffix;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /** The names a serving certificate covers (OLM's HostnamesForService). */
  public static List<String> hosts(String serviceName, String namespace) {
    String base = serviceName + "." + namespace;
    return List.of(base, base + ".svc", base + ".svc.cluster.local");
  }

  /** The objects for {@code deployment} serving {@code resources}; mounts the Secret into it. */
  static List<ObjectNode> forDeployment(
      ObjectNode deployment,
      List<CertResources.CertResource> resources,
      String namespace,
      ObjectNode ownerLabels) {
    String service = serviceName(deployment.path("metadata").path("name").asText());
    String secret = secretName(service);
    ObjectNode podSpec =
        DeploymentOverrides.object(
            DeploymentOverrides.object(DeploymentOverrides.object(deployment, "spec"), "template"),
            "spec");
    if (podSpec.path("serviceAccountName").asText("").isEmpty()) {
      podSpec.put("serviceAccountName", "default");
    }
    String serviceAccount = podSpec.path("serviceAccountName").asText();
    ObjectNode managed = ownerLabels.deepCopy().put("olm.managed", "true");
    List<ObjectNode> out = new ArrayList<>();
    out.add(service(service, namespace, deployment, resources, managed));
    ObjectNode secretObject =
        object("v1", "Secret", secret, namespace, managed).put("type", "kubernetes.io/tls");
    secretObject
        .withObjectProperty("metadata")
        .putObject("annotations")
        .put(SERVING_CERT_FOR, service);
    out.add(secretObject);
    ObjectNode role = object("rbac.authorization.k8s.io/v1", "Role", secret, namespace, managed);
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("verbs").add("get");
    rule.putArray("apiGroups").add("");
    rule.putArray("resources").add("secrets");
    rule.putArray("resourceNames").add(secret);
    out.add(role);
    out.add(
        binding(
            "RoleBinding", secret, namespace, "Role", secret, serviceAccount, namespace, managed));
    out.add(
        binding(
            "ClusterRoleBinding",
            authDelegatorBindingName(service, namespace),
            null,
            "ClusterRole",
            "system:auth-delegator",
            serviceAccount,
            namespace,
            managed));
    out.add(
        binding(
            "RoleBinding",
            authReaderBindingName(service, namespace),
            "kube-system",
            "Role",
            "extension-apiserver-authentication-reader",
            serviceAccount,
            namespace,
            managed));
    mount(
        podSpec,
        secretVolume("apiservice-cert", secret, "apiserver.crt", "apiserver.key"),
        APISERVICE_CERT_DIR);
    mount(podSpec, secretVolume("webhook-cert", secret, "tls.crt", "tls.key"), WEBHOOK_CERT_DIR);
    return out;
  }

  private static ObjectNode service(
      String name,
      String namespace,
      JsonNode deployment,
      List<CertResources.CertResource> resources,
      ObjectNode labels) {
    ObjectNode svc = object("v1", "Service", name, namespace, labels);
    ObjectNode spec = svc.putObject("spec");
    ArrayNode ports = spec.putArray("ports");
    List<String> seen = new ArrayList<>();
    for (CertResources.CertResource r : resources) {
      String key = r.containerPort() + "->" + r.targetPort();
      if (!seen.contains(key)) {
        seen.add(key);
        ports
            .addObject()
            .put("name", String.valueOf(r.containerPort()))
            .put("port", r.containerPort())
            .set("targetPort", r.targetPort().deepCopy());
      }
    }
    spec.set("selector", deployment.path("spec").path("selector").path("matchLabels").deepCopy());
    return svc;
  }

  private static ObjectNode secretVolume(
      String name, String secret, String certPath, String keyPath) {
    ObjectNode volume = JSON.objectNode().put("name", name);
    ObjectNode source = volume.putObject("secret").put("secretName", secret);
    ArrayNode items = source.putArray("items");
    items.addObject().put("key", "tls.crt").put("path", certPath);
    items.addObject().put("key", "tls.key").put("path", keyPath);
    return volume;
  }

  /**
   * OLM's addCertVolumeAndVolumeMount: the volume replaces one of its name; a mount at the same
   * path is replaced.
   */
  private static void mount(ObjectNode podSpec, ObjectNode volume, String path) {
    String name = volume.path("name").asText();
    ArrayNode volumes = podSpec.withArray("volumes");
    boolean replaced = false;
    for (int i = 0; i < volumes.size() && !replaced; i++) {
      if (name.equals(volumes.get(i).path("name").asText())) {
        volumes.set(i, volume);
        replaced = true;
      }
    }
    if (!replaced) {
      volumes.add(volume);
    }
    for (JsonNode container : podSpec.path("containers")) {
      ArrayNode mounts = ((ObjectNode) container).withArray("volumeMounts");
      ObjectNode mount = JSON.objectNode().put("name", name).put("mountPath", path);
      boolean found = false;
      for (int j = 0; j < mounts.size() && !found; j++) {
        if (name.equals(mounts.get(j).path("name").asText())) {
          found = true;
        } else if (path.equals(mounts.get(j).path("mountPath").asText())) {
          mounts.set(j, mount);
          found = true;
        }
      }
      if (!found) {
        mounts.add(mount);
      }
    }
  }

  private static ObjectNode binding(
      String kind,
      String name,
      String namespace,
      String roleKind,
      String role,
      String serviceAccount,
      String saNamespace,
      ObjectNode labels) {
    ObjectNode b = object("rbac.authorization.k8s.io/v1", kind, name, namespace, labels);
    b.putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("apiGroup", "")
        .put("name", serviceAccount)
        .put("namespace", saNamespace);
    b.putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", roleKind)
        .put("name", role);
    return b;
  }

  static ObjectNode object(
      String apiVersion, String kind, String name, String namespace, ObjectNode labels) {
    ObjectNode o = JSON.objectNode().put("apiVersion", apiVersion).put("kind", kind);
    ObjectNode meta = o.putObject("metadata").put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    meta.set("labels", labels.deepCopy());
    return o;
  }
}
