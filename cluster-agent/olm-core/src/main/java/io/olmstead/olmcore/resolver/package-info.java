/**
 * OLM v0 dependency resolution for one namespace ({@link io.olmstead.olmcore.resolver.Resolver}).
 *
 * <p>The problem is built like upstream's SAT input: a variable per subscription and per candidate
 * bundle, with "subscription S exists" (mandatory), "subscription S requires A, B or C" and "bundle
 * X requires ..." (ordered dependencies), and "at most one" per package and per provided API. It is
 * solved by a small DPLL-style search ({@code Solver}): unit propagation, then a decision on the
 * first open dependency, trying candidates in preference order and undoing a choice that leads to a
 * conflict; a bundle whose dependency has no candidate at all is learned as impossible. The first
 * solution found is the preferred one. A node budget bounds the search. An unsatisfiable problem is
 * explained by deletion-based minimisation of its constraints, in upstream's words.
 *
 * <p>Where this differs from upstream, on purpose or for lack of information:
 *
 * <ul>
 *   <li>Catalogs have no namespace: upstream's "catalog in the subscription's namespace" preference
 *       is "the subscription's catalog", and variable ids read {@code catalog/channel/bundle}.
 *   <li>A bundle carried by several channels of one catalog is one variable (offered in its most
 *       preferred channel); upstream has one per channel, which changes nothing since one bundle
 *       per package holds.
 *   <li>An installed bundle missing from every catalog has no known properties and version 0.0.0
 *       (as a CSV without a version is upstream).
 *   <li>{@code startingBundle} may name an entry on the replaces chain or one skipped by name; an
 *       entry reachable only through a skipRange is refused.
 *   <li>A subscription's channel that cannot be ordered fails the whole resolution with upstream's
 *       {@code sortChannel} error; invalid channels are ignored as dependency sources.
 *   <li>{@code olm.constraint} (generic constraints; decoded and validated, see {@code
 *       Bundle#constraints()}) and deprecation-based prohibition are not evaluated.
 * </ul>
 */
package io.olmstead.olmcore.resolver;
