package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Hand-made manifests for rule tests: a compliant CSV and CRD that each test breaks in one place.
 */
final class Manifests {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Manifests() {}

  static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A CSV that breaks no rule (pod security restricted, resources, probes, two replicas, narrow
   * RBAC).
   */
  static String goodCsv() {
    return """
            apiVersion: operators.coreos.com/v1alpha1
            kind: ClusterServiceVersion
            metadata:
              name: demo.v1.0.0
              annotations:
                capabilities: Full Lifecycle
                categories: Database
            spec:
              displayName: Demo
              description: A demo operator
              provider: {name: Demo}
              maintainers: [{name: a, email: a@example.com}]
              links: [{name: docs, url: https://example.com}]
              icon: [{base64data: PHN2Zy8+, mediatype: image/svg+xml}]
              minKubeVersion: 1.25.0
              installModes: [{type: OwnNamespace, supported: true}, {type: AllNamespaces, supported: true}]
              customresourcedefinitions:
                owned: [{name: widgets.demo.io, kind: Widget, version: v1, resources: [{kind: StatefulSet, version: v1}]}]
              install:
                strategy: deployment
                spec:
                  permissions:
                  - serviceAccountName: demo
                    rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}]
                  clusterPermissions:
                  - serviceAccountName: demo
                    rules: [{apiGroups: [demo.io], resources: [widgets], verbs: [get, list, watch, update]}]
                  deployments:
                  - name: demo-operator
                    spec:
                      replicas: 2
                      template:
                        spec:
                          securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
                          containers:
                          - name: manager
                            image: quay.io/demo/op@sha256:0000000000000000000000000000000000000000000000000000000000000000
                            securityContext:
                              allowPrivilegeEscalation: false
                              readOnlyRootFilesystem: true
                              capabilities: {drop: [ALL]}
                            resources: {requests: {cpu: 10m, memory: 64Mi}, limits: {cpu: 100m, memory: 128Mi}}
                            livenessProbe: {httpGet: {path: /healthz, port: 8081}}
                            readinessProbe: {httpGet: {path: /readyz, port: 8081}}
            """;
  }

  static String goodCrd() {
    return """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: widgets.demo.io
              annotations:
                resource/composition: StatefulSet, Service
                resource/annotation-relationship: on:Pod, key:demo.io/widget, value:INSTANCE.metadata.name
                resource/label-relationship: on:StatefulSet, value:INSTANCE.metadata.name
                resource/specproperty-relationship: on:INSTANCE.spec.storage, value:StatefulSet.spec.volumeClaimTemplates
                resource/usage: widget-usage.usage
            spec:
              group: demo.io
              names: {kind: Widget, plural: widgets}
              scope: Namespaced
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          size: {type: integer}
                          pod:
                            type: object
                            properties:
                              resources: {type: object, x-kubernetes-preserve-unknown-fields: true}
                              nodeSelector: {type: object, additionalProperties: {type: string}}
                              affinity: {type: object, x-kubernetes-preserve-unknown-fields: true}
                              tolerations: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                              securityContext: {type: object, x-kubernetes-preserve-unknown-fields: true}
                              serviceAccountName: {type: string}
            """;
  }

  static MaturityReport analyze(String csv, String... others) {
    List<JsonNode> objects = new ArrayList<>();
    if (csv != null) {
      objects.add(yaml(csv));
    }
    for (String o : others) {
      objects.add(yaml(o));
    }
    return new MaturityAnalyzer()
        .analyze(BundleView.of("demo.v1.0.0", objects, null, List.of(), true, List.of()));
  }
}
