// Rollout preview panel (#/preview/SUBSCRIPTION/VERSION): the plan's impact report before anything moves - per
// installed version the RBAC, CRD, webhook and API changes, the totals, and per cluster its hops, affected custom
// resources, OpenShift effect and window - and the report as a JSON download for a change ticket. Plain JS, no build;
// uses api() and esc() of app.js.
import {api, esc} from './core.js';
import {page} from './router.js';

const CLUSTER_ROWS = 200;
let lastPreview = null;

function grantText(g) {
  const what = g.nonResourceURL || ((g.apiGroup ? g.apiGroup + '/' : '') + g.resource +
    (g.resourceNames ? ' ' + g.resourceNames.join(',') : ''));
  return `${g.scope} ${what}: ${g.verbs.join(',')}`;
}

function rows(cls, sign, items, text) {
  return (items || []).map((i) => `<li data-test="${cls}" data-sign="${sign}">${sign} ${esc(text(i))}</li>`).join('');
}

function transition(t) {
  let html = `<section data-test="transition" data-from="${esc(t.fromVersion || 'none')}"><h3>From ` +
    `${esc(t.fromVersion || 'nothing installed')} (${t.clusters} clusters): ${esc(t.fromBundle || '-')} → ` +
    `${esc(t.toBundle || '-')}</h3>`;
  if (t.unavailable) { return html + `<p data-test="unavailable">Not compared: ${esc(t.unavailable)}</p></section>`; }
  const crd = (c) => `${c.name} (${c.kind}) ${(c.versions || []).join(',')}`;
  const changed = (c) => `${c.name}: ${[c.versionsAdded.length ? 'versions +' + c.versionsAdded.join(',') : '',
    c.versionsRemoved.length ? 'versions -' + c.versionsRemoved.join(',') : '',
    c.schemaChanged.length ? 'schema ' + c.schemaChanged.join(',') : ''].filter(Boolean).join(', ')}` +
    (c.breaking ? ' BREAKING' : '');
  const api = (a) => a.name ? `${a.name} ${a.version} (${a.kind})` : `${a.group}/${a.version} ${a.kind}`;
  const hook = (w) => `${w.name} (${w.type})${w.fields ? ' ' + w.fields.join(',') : ''}`;
  html += '<h4>Permissions</h4><ul data-test="rbac">' + rows('grant', '+', t.rbac.added, grantText) +
    rows('grant', '-', t.rbac.removed, grantText) + '</ul>';
  html += '<h4>CRDs</h4><ul data-test="crds">' + rows('crd', '+', t.crds.added, crd) + rows('crd', '-', t.crds.removed, crd) +
    rows('crd', '~', t.crds.changed, changed) + '</ul>';
  html += '<h4>Webhooks</h4><ul data-test="webhooks">' + rows('webhook', '+', t.webhooks.added, hook) +
    rows('webhook', '-', t.webhooks.removed, hook) + rows('webhook', '~', t.webhooks.changed, hook) + '</ul>';
  html += '<h4>APIs</h4><ul data-test="apis">' + rows('api', '-', t.apis.removed, api) + rows('api', '+', t.apis.added, api) +
    rows('api', 'needs', (t.apis.requires || []).filter((a) => a.new), api) + '</ul>';
  return html + '</section>';
}

function report(p) {
  const im = p.impact, t = im.totals;
  let html = `<h1>Preview: ${esc(p.subscription)} → ${esc(p.targetVersion)}</h1>` +
    '<p><button id="impact-download">Download JSON</button></p>' +
    `<table id="impact-totals"><tr><th>Clusters</th><td>${t.clusters}</td></tr>` +
    `<tr><th>Most hops</th><td>${t.maxHops}</td></tr>` +
    `<tr><th>Gaining / losing permissions</th><td>${t.rbac.clustersGainingPermissions} / ${t.rbac.clustersLosingPermissions}</td></tr>` +
    `<tr><th>Custom resources affected</th><td id="impact-resources">${t.customResources.affected} on ` +
    `${t.customResources.clustersAffected} clusters (${t.customResources.breaking} by breaking changes)</td></tr>` +
    `<tr><th>Webhook changes</th><td>${t.webhooks.clustersWithChanges} clusters</td></tr>` +
    `<tr><th>OpenShift</th><td>${esc(Object.entries(t.openShift).map(([k, v]) => k + ' ' + v).join(', '))}</td></tr>` +
    `<tr><th>Windows</th><td>${t.windows.openNow} open now, ${t.windows.later} later, ${t.windows.noWindow} none</td></tr>` +
    `<tr><th>Risky edges</th><td id="impact-risky">${im.riskyEdges.evaluated ? t.riskyEdges.clustersAtRisk + ' clusters at risk' : 'not evaluated'}</td></tr>` +
    '</table>';
  html += im.transitions.map(transition).join('');
  html += '<h2>Clusters</h2><table id="impact-clusters"><tr><th>Cluster</th><th>Wave</th><th>From</th><th>Path</th>' +
    '<th>Custom resources</th><th>OpenShift</th><th>Window</th></tr>' +
    im.clusters.slice(0, CLUSTER_ROWS).map((c) => `<tr data-test="impact-cluster" data-cluster="${esc(c.name)}">` +
      `<td>${esc(c.name)}</td><td>${esc(c.wave)}</td><td>${esc(c.fromVersion || '-')}</td>` +
      `<td>${esc(c.path.map((h) => h.version).join(' → '))}</td><td data-test="crs">${c.customResources.total}</td>` +
      `<td>${esc(c.openShift.effect)}</td><td>${c.window.openNow ? 'now' : esc(c.window.nextOpening || 'none')}</td></tr>`)
      .join('') + '</table>' +
    (t.clusters > CLUSTER_ROWS ? `<p>Showing ${CLUSTER_ROWS} of ${t.clusters} clusters: the JSON has them all.</p>` : '');
  return html;
}

async function previewView(subscription, version) {
  lastPreview = await api('/rollouts/preview', {method: 'POST',
    body: JSON.stringify({subscription, targetVersion: version})});
  return report(lastPreview);
}

function wire() {
  const button = document.getElementById('impact-download');
  if (!button || !lastPreview) { return; }
  button.addEventListener('click', () => {
    const blob = new Blob([JSON.stringify(lastPreview, null, 2)], {type: 'application/json'});
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `impact-${lastPreview.subscription}-${lastPreview.targetVersion}.json`;
    a.click();
  });
}

page(/^#\/preview\/([^/?]+)\/([^/?]+)$/, (m) => previewView(decodeURIComponent(m[1]), decodeURIComponent(m[2])),
wire);
