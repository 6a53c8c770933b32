// Clusters list (#/clusters?selector=&status=&namePrefix=&subscription=&phase=&version=&cursor=), one page at a
// time from the server's filters, and the Cluster page (#/clusters/NAME): what one cluster is and runs.
import {api, esc, enc, hashParams, hashWith} from './core.js';
import {page} from './router.js';
import {tone} from './palette.js';

const FILTERS = ['selector', 'status', 'namePrefix', 'subscription', 'phase', 'version'];

async function clustersView() {
  const p = hashParams();
  const q = FILTERS.filter((k) => p[k]).map((k) => k + '=' + enc(p[k])).join('&');
  const page = await api('/clusters?limit=100' + (q ? '&' + q : '') + (p.cursor ? '&cursor=' + enc(p.cursor) : ''));
  const filters = Object.assign({}, p); delete filters.cursor;
  return '<h1>Clusters</h1><form id="clusters-filter" class="filter">' +
    FILTERS.map((k) => `<label>${k} <input name="${k}" value="${esc(p[k] || '')}" size="${k === 'selector' ? 30 : 12}"></label>`).join(' ') +
    ' <button type="submit">Apply</button></form>' +
    '<table id="cluster-list"><tr><th>Name</th><th>Status</th><th>Last seen</th><th>Kubernetes</th><th>Labels</th></tr>' +
    page.items.map((c) => `<tr data-cluster="${esc(c.name)}"><td><a href="#/clusters/${esc(enc(c.name))}">${esc(c.name)}</a></td>` +
      `<td>${esc(c.status)}</td><td>${esc(c.lastSeen)}</td><td>${esc(c.kubernetesVersion)}</td><td>${labels(c.labels)}</td></tr>`).join('') +
    '</table>' + (page.items.length === 0 ? '<p class="muted">No cluster matches.</p>' : '') +
    (page.nextCursor ? `<p><a id="next-clusters" href="${esc(hashWith('#/clusters', Object.assign({}, filters, {cursor: page.nextCursor})))}">Next page →</a></p>` : '');
}

function clustersForm(view) {
  const form = view.querySelector('#clusters-filter');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.hash = hashWith('#/clusters', Object.fromEntries(new FormData(form)));
  });
}

function labels(l) {
  return Object.keys(l || {}).sort().map((k) => `<span class="label">${esc(k)}=${esc(l[k])}</span>`).join(' ');
}

function kv(o) {
  const keys = Object.keys(o || {}).sort();
  return keys.length === 0 ? '<p class="muted">none</p>' : '<table class="kv">' +
    keys.map((k) => `<tr><th>${esc(k)}</th><td>${esc(typeof o[k] === 'object' ? JSON.stringify(o[k]) : o[k])}</td></tr>`).join('') + '</table>';
}

function conditions(list) {
  return (list || []).map((c) => `<div class="condition"><b>${esc(c.type)}</b>=${esc(c.status)}` +
    (c.reason ? ` ${esc(c.reason)}` : '') + (c.message ? `: ${esc(c.message)}` : '') + '</div>').join('');
}

async function clusterView(m) {
  const name = decodeURIComponent(m[1]), path = '/clusters/' + enc(name);
  const optional = (p) => api(p).catch(() => null);
  const [c, subs, inventory, readiness, approvals] = await Promise.all([api(path), api(path + '/subscriptions'),
    optional(path + '/inventory'), optional(path + '/upgrade-readiness'), optional(path + '/approvals?limit=100')]);
  let html = `<h1>Cluster <span id="cluster-name">${esc(c.name)}</span></h1>` +
    `<p>Status <b id="cluster-status">${esc(c.status)}</b> · last seen ${esc(c.lastSeen || 'never')} · agent ${esc(c.agentVersion || '?')}` +
    ` · Kubernetes ${esc(c.kubernetesVersion || '?')}</p><h2>Labels</h2><p id="cluster-labels">${labels(c.labels)}</p>`;

  html += '<h2>Subscriptions</h2><table id="cluster-subscriptions"><tr><th>Subscription</th><th>Package</th><th>Installed</th>' +
    '<th>Target</th><th>Phase</th><th>Reason</th><th>Message</th><th>Conditions</th><th>Reported</th></tr>' +
    subs.items.map((s) => `<tr data-subscription="${esc(s.subscription)}"><td>${esc(s.subscription)}</td><td>${esc(s.package)}</td>` +
      `<td>${esc(s.installedBundle || s.installedVersion || 'none')}</td><td>${esc(s.targetVersion)}</td>` +
      `<td class="toned ${tone(s.phase)}" data-test="phase">${esc(s.phase)}</td><td data-test="reason">${esc(s.reason)}</td><td data-test="message">${esc(s.message)}</td>` +
      `<td>${conditions(s.conditions)}</td><td>${esc(s.updatedAt)}</td></tr>`).join('') + '</table>' +
    (subs.items.length === 0 ? '<p class="muted">The agent has reported no subscription.</p>' : '');

  if (approvals && approvals.items.length) {
    html += '<h2>Approvals</h2><table id="cluster-approvals"><tr><th>Subscription</th><th>Bundle</th><th>By</th><th>At</th></tr>' +
      approvals.items.map((a) => `<tr><td>${esc(a.subscription)}</td><td>${esc(a.bundle)}</td><td>${esc(a.approvedBy)}</td><td>${esc(a.approvedAt)}</td></tr>`).join('') + '</table>';
  }

  html += '<h2>Inventory</h2>';
  if (!inventory || !inventory.reportedAt) {
    html += '<p class="muted">No inventory reported.</p>';
  } else {
    html += `<p>Reported ${esc(inventory.reportedAt)}${inventory.truncated ? ' (truncated by the agent)' : ''}</p>` +
      '<table id="cluster-inventory"><tr><th>Package</th><th>Version</th><th>Subscription</th><th>Pulled in by</th><th>Namespace</th><th>Phase</th><th>Custom resources</th><th>Pods</th></tr>' +
      inventory.operators.map((o) => `<tr data-package="${esc(o.package)}"><td>${esc(o.package)}</td><td>${esc(o.version)}</td>` +
        `<td>${esc(o.subscription)}</td><td data-test="dependency-of">${esc(o.dependencyOf || '')}</td><td>${esc(o.namespace)}</td><td>${esc(o.phase)}</td>` +
        `<td>${(o.customResources || []).map((r) => esc((r.kind || r.name) + ': ' + r.count)).join(', ')}</td>` +
        `<td>${esc(o.pods ? o.pods.count : '')}</td></tr>`).join('') + '</table>';
  }

  html += '<h2>Upgrade readiness</h2>';
  if (!readiness || readiness.upgradeable == null) {
    html += '<p class="muted" id="cluster-readiness">No OpenShift version known.</p>';
  } else {
    html += `<p id="cluster-readiness">${esc(readiness.version)} → ${esc(readiness.target)}: <b>${readiness.upgradeable ? 'upgradeable' : 'blocked'}</b></p>` +
      (readiness.blocking || []).map((b) => `<div data-test="blocker">${esc(b.hidden ? "another team's operator" : b.package)} ${esc(b.installedVersion || '')} ` +
        `(max ${esc(b.maxOpenShiftVersion || '')})${b.unblockedBy && b.unblockedBy.length ? ' · unblocked by ' + esc(b.unblockedBy.join(', ')) : ''}</div>`).join('');
  }
  html += `<h2>Facts</h2>${kv(c.facts)}`;
  return html;
}

page(/^#\/clusters$/, clustersView, clustersForm);
page(/^#\/clusters\/([^/?]+)$/, clusterView);
