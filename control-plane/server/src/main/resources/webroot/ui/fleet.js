// Fleet page (#/?selector=&label=&cursor=): per subscription, clusters by installed version and phase as stacked bars
// (Chart.js, colour = phase), the latest failures first with the agent's reason and message, and the clusters by a
// chosen label and connection state. Every number comes from the server's aggregates (GET /fleet/summary and
// GET /fleet/clusters-by-label): the page never downloads the clusters themselves. Above them, what needs a person:
// rollouts in progress and paused, clusters waiting for a manual approval, and the clusters of active rollouts that
// are stuck, each with its reason; times are relative ("3 min ago", the full timestamp in the title).
import {api, esc, enc, hashParams, hashWith, ago} from './core.js';
import {page} from './router.js';
import {colour, swatch, tone} from './palette.js';

// the phases in the legend, each coloured by its meaning in the palette (the charts use the same)
const PHASES = ['Succeeded', 'Installing', 'Upgrading', 'Pending', 'RequiresApproval', 'Failed', 'Deleting', 'Unknown'];
const LABELS = ['region', 'olmstead.io/team', 'hypershift.olmstead.io/platform', 'env'];
let charts = [];
let summary = null;

function clustersLink(params, text) {
  return `<a href="${esc(hashWith('#/clusters', params))}">${esc(text)}</a>`;
}

async function fleetView() {
  const p = hashParams(), selector = p.selector || '', label = p.label || 'region';
  const sel = selector ? '&selector=' + enc(selector) : '';
  // independent reads at once: the page waits for the slowest, not for their sum
  const [sum, byLabel, attention] = await Promise.all([
    api('/fleet/summary?limit=10' + sel + (p.cursor ? '&cursor=' + enc(p.cursor) : '')),
    api('/fleet/clusters-by-label?label=' + enc(label) + sel), attentionHtml(sel)]);
  summary = sum;
  const totals = {total: 0, connected: 0, disconnected: 0, pending: 0, retired: 0};
  byLabel.items.forEach((i) => Object.keys(totals).forEach((k) => { totals[k] += i[k] || 0; }));
  const subs = sum.items.slice().sort((a, b) => (b.failed > 0) - (a.failed > 0) || a.subscription.localeCompare(b.subscription));
  const failures = [].concat(...sum.items.map((s) => s.failures.map((f) => Object.assign({subscription: s.subscription}, f))))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const failedTotal = sum.items.reduce((n, s) => n + s.failed, 0);

  let html = '<h1>Fleet</h1><form id="fleet-filter" class="filter">' +
    `<label>Label selector <input id="selector" name="selector" size="40" placeholder="env=prod,region in (eu,us)" value="${esc(selector)}"></label> ` +
    `<label>Group by <input id="group-label" name="label" list="label-keys" size="28" value="${esc(label)}"></label>` +
    `<datalist id="label-keys">${LABELS.map((l) => `<option value="${esc(l)}">`).join('')}</datalist> ` +
    '<button type="submit">Apply</button></form>' +
    '<div class="cards">' +
    `<div class="card"><div class="n" id="clusters-total">${totals.total}</div>clusters</div>` +
    ['connected', 'disconnected', 'pending', 'retired'].map((k) =>
      `<div class="card"><div class="n" data-status="${k}">${totals[k]}</div>${k}</div>`).join('') +
    `<div class="card"><div class="n" id="failed-total">${failedTotal}</div>failed installs</div></div>`;

  html += attention;
  html += `<h2>Failures</h2>`;
  html += failures.length === 0 ? '<p id="failures" class="muted">No cluster reports a failed install.</p>' :
    '<table id="failures"><tr><th>Subscription</th><th>Cluster</th><th>Version</th><th>Reason</th><th>Message</th><th>Since</th></tr>' +
    failures.map((f) => `<tr class="failure" data-test="failure" data-cluster="${esc(f.cluster)}"><td>${esc(f.subscription)}</td>` +
      `<td><a href="#/clusters/${esc(enc(f.cluster))}">${esc(f.cluster)}</a></td>` +
      `<td>${esc(f.installedVersion || 'none')} → ${esc(f.targetVersion || '')}</td><td class="reason" data-test="reason">${esc(f.reason)}</td>` +
      `<td data-test="message">${esc(f.message)}</td><td>${ago(f.updatedAt)}</td></tr>`).join('') + '</table>';

  html += '<h2>Subscriptions: clusters by version and phase</h2><div class="legend" id="phase-legend">' +
    PHASES.map((ph) => `<span data-test="legend-item">${swatch(ph)}${esc(ph)}</span>`).join('') + '</div>';
  html += '<div id="subscriptions">' + subs.map((s) => {
    const height = 40 + 26 * Math.max(1, s.versions.length);
    return `<div class="sub" data-test="subscription" data-subscription="${esc(s.subscription)}"><h3>${esc(s.subscription)} ` +
      `<small>${esc(s.package || '')} · ${s.clusters} clusters` +
      (s.failed ? ` · <span class="error">${s.failed} failed</span> (${clustersLink({subscription: s.subscription, phase: 'Failed', selector}, 'list')})` : '') +
      `</small></h3><div class="chart" data-height="${height}"><canvas data-subscription="${esc(s.subscription)}"></canvas></div>` +
      (s.versions.length === 0 ? '<p class="muted">No cluster reports it yet.</p>' : '') + '</div>';
  }).join('') + '</div>';
  if (sum.nextCursor) {
    html += `<p><a id="next-subscriptions" href="${esc(hashWith('#/', {selector, label: p.label, cursor: sum.nextCursor}))}">Next subscriptions →</a></p>`;
  }

  html += `<h2>Clusters by <code>${esc(label)}</code></h2><table id="by-label"><tr><th>${esc(label)}</th><th>connected</th>` +
    '<th>disconnected</th><th>pending</th><th>retired</th><th>total</th></tr>' +
    byLabel.items.map((i) => {
      const s = [selector, i.value == null ? '!' + label : label + '=' + i.value].filter((x) => x).join(',');
      return `<tr data-value="${esc(i.value == null ? '' : i.value)}"><td>${esc(i.value == null ? '(none)' : i.value)}</td>` +
        ['connected', 'disconnected', 'pending', 'retired'].map((k) => `<td data-test="${k}">${i[k] ? clustersLink({selector: s, status: k}, i[k]) : 0}</td>`).join('') +
        `<td>${clustersLink({selector: s}, i.total)}</td></tr>`;
    }).join('') + '</table>' + (byLabel.truncated ? '<p class="muted">Only the first 500 values are shown.</p>' : '');
  return html;
}

// Active and paused rollouts, pending approvals, and the stuck clusters of up to 5 active rollouts with their reasons.
async function attentionHtml(sel) {
  const [progressing, paused, approvals] = await Promise.all([api('/rollouts?state=Progressing&limit=20'),
    api('/rollouts?state=Paused&limit=20'), api('/approvals?limit=20' + sel)]);
  const active = paused.items.concat(progressing.items);
  const members = await Promise.all(active.slice(0, 5).map((r) =>
    api('/rollouts/' + enc(r.id) + '/clusters?limit=100').then((page) => page.items.filter((c) => c.reason)
      .map((c) => Object.assign({rollout: r}, c)))));
  const stuck = [].concat(...members);
  let html = '<h2>Rollouts in progress</h2>';
  html += active.length === 0 ? '<p id="active-rollouts" class="muted">No rollout is in progress or paused.</p>' :
    '<table id="active-rollouts"><tr><th>Rollout</th><th>Subscription</th><th>Target</th><th>State</th><th>Progress</th>' +
    '<th>Message</th><th>Started</th></tr>' + active.map((r) => `<tr data-test="rollout" data-id="${esc(r.id)}" ` +
      `data-state="${esc(r.state)}"><td><a href="#/rollouts/${esc(enc(r.id))}">${esc(r.id)}</a></td><td>${esc(r.subscription)}</td>` +
      `<td>${esc(r.targetVersion)}</td><td class="state toned ${tone(r.state)}" data-test="state">${esc(r.state)}</td>` +
      `<td>${r.counts ? r.counts.succeeded + '/' + r.counts.clusters : ''}</td><td data-test="message">${esc(r.message || '')}</td>` +
      `<td>${ago(r.startedAt)}</td></tr>`).join('') + '</table>';
  html += '<h2>Pending approvals</h2>';
  html += approvals.items.length === 0 ? '<p id="pending-approvals" class="muted">No cluster waits for an approval.</p>' :
    `<p class="muted"><a href="#/approvals">${approvals.nextCursor ? 'More than ' : ''}${approvals.items.length} ` +
    'waiting: approve on the Approvals page</a></p><table id="pending-approvals"><tr><th>Cluster</th><th>Subscription</th>' +
    '<th>Bundle</th><th>Waiting</th></tr>' + approvals.items.map((a) => `<tr data-test="pending-approval" ` +
      `data-cluster="${esc(a.cluster)}"><td><a href="#/clusters/${esc(enc(a.cluster))}">${esc(a.cluster)}</a></td>` +
      `<td>${esc(a.subscription)}</td><td>${esc(a.bundle || '')}</td><td>${ago(a.since)}</td></tr>`).join('') + '</table>';
  html += '<h2>Stuck clusters</h2>';
  html += stuck.length === 0 ? '<p id="stuck" class="muted">No cluster of an active rollout is held.</p>' :
    '<table id="stuck"><tr><th>Cluster</th><th>Rollout</th><th>State</th><th>Reason</th><th>Since</th></tr>' +
    stuck.map((c) => `<tr data-test="stuck" data-cluster="${esc(c.name)}" data-code="${esc(c.reason.code)}">` +
      `<td><a href="#/clusters/${esc(enc(c.name))}">${esc(c.name)}</a></td>` +
      `<td><a href="#/rollouts/${esc(enc(c.rollout.id))}">${esc(c.rollout.subscription)} → ${esc(c.rollout.targetVersion)}</a></td>` +
      `<td>${esc(c.state)}</td><td class="cluster-reason ${tone(c.reason.code)}" data-test="reason" title="${esc(c.reason.message)}">${esc(c.reason.message)}</td>` +
      `<td>${ago(c.reason.at || c.approvedAt)}</td></tr>`).join('') + '</table>';
  return html;
}

// Charts are drawn once the html is in place; clicking a bar lists its clusters (subscription, version, phase).
function drawCharts(view) {
  charts.forEach((c) => c.destroy());
  charts = [];
  view.querySelectorAll('.chart').forEach((el) => { el.style.height = el.dataset.height + 'px'; });
  view.querySelector('#fleet-filter').addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.hash = hashWith('#/', {selector: view.querySelector('#selector').value.trim(),
      label: view.querySelector('#group-label').value.trim()});
  });
  if (!window.Chart || !summary) { return; }
  const selector = hashParams().selector || '';
  summary.items.forEach((s) => {
    const canvas = view.querySelector(`canvas[data-subscription="${CSS.escape(s.subscription)}"]`);
    if (!canvas || s.versions.length === 0) { return; }
    const phases = [...new Set([].concat(...s.versions.map((v) => Object.keys(v.phases))))]
      .sort((a, b) => (a === 'Failed' ? -1 : b === 'Failed' ? 1 : a.localeCompare(b)));
    const versions = s.versions.map((v) => v.version);
    charts.push(new window.Chart(canvas, {
      type: 'bar',
      data: {labels: versions, datasets: phases.map((ph) => ({label: ph, backgroundColor: colour(ph),
        data: s.versions.map((v) => v.phases[ph] || 0)}))},
      options: {indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
        scales: {x: {stacked: true, beginAtZero: true, ticks: {precision: 0}}, y: {stacked: true}},
        plugins: {legend: {display: true, position: 'right'}},
        onClick: (ev, elements) => {
          if (!elements.length) { return; }
          const e = elements[0];
          location.hash = hashWith('#/clusters', {subscription: s.subscription, version: versions[e.index],
            phase: phases[e.datasetIndex], selector});
        }}
    }));
  });
}

page(/^#\/?$/, fleetView, drawCharts);
