/**
 * From a resolved bundle to the ordered Kubernetes objects OLM would create ({@link
 * io.olmstead.olmcore.installplan.InstallPlanner}): CRDs; service accounts, roles and bindings from
 * the CSV permissions (named {@code <csv>-<sa>-<hash>} and {@code <csv>-<hash>}, at most 63
 * characters); the install strategy's deployments with the subscription {@code config} applied as
 * OLM's overrides/inject package does and {@code OPERATOR_CONDITION_NAME} and the operator-group
 * annotations injected; then the bundle's other objects. Install modes are checked against the
 * target namespaces with operator-framework/api's rules and messages; no targets means the bundle's
 * default ({@link InstallMode}). The operator group's RBAC is added as OLM's controllers write it
 * (OperatorGroupRbac): permissions lifted to the cluster for AllNamespaces, copied into each target
 * for Single/MultiNamespace, the OperatorCondition role, the owned CRDs' aggregated ClusterRoles.
 *
 * <p>Deviations: an empty {@code podAntiAffinity} override removes only that attribute (upstream
 * clears the whole affinity, an evident slip); a ServiceAccount shipped in the bundle replaces the
 * generated one.
 */
package io.olmstead.olmcore.installplan;
