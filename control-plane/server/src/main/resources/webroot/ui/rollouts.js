// Rollouts pages: the list (state colours with a legend) and one rollout (the targets of a rollout of several
// subscriptions, waves on a timeline, grouped by the strategy's groupBy label, its history, a page of clusters with
// each failed member's own error). Colours are the palette's classes (palette.js): the CSP allows no inline styles.
import {api, esc, whoami} from './core.js';
import {page, render} from './router.js';
import {swatch, tone} from './palette.js';

const CLUSTERS_PAGE = 100;
// the clusters table's filter and page, kept while the page re-renders on events
const rolloutPaging = {id: null, state: '', cursors: [null]};

function stateLabel(state, id) {
  return `<span class="state" data-test="state" data-state="${esc(state)}"${id ? ` id="${id}"` : ''}>${swatch(state)} ${esc(state)}</span>`;
}

function legend(states) {
  return '<p class="legend" id="rollout-legend">' + states.map((s) => `<span data-test="legend-item">${swatch(s)} ${esc(s)}</span>`)
    .join(' ') + '</p>';
}

// A wave of a rolled-back rollout did not succeed: what it had done was undone, so it says RolledBack.
function waveState(r, w) {
  return r.state === 'RolledBack' && w.openedAt ? 'RolledBack' : w.state;
}

function when(iso) { return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : ''; }

async function rolloutsView() {
  const page = await api('/rollouts?limit=100');
  const states = ['Progressing', 'Paused', 'Succeeded', 'SucceededWithExceptions', 'Failed', 'Aborted', 'RolledBack'];
  return '<h1>Rollouts</h1>' + legend(states) +
    '<table id="rollouts"><tr><th>Id</th><th>Subscription</th><th>Target</th><th>State</th><th>Started</th><th>Progress</th></tr>' +
    page.items.map((r) => `<tr data-test="rollout" data-id="${esc(r.id)}"><td><a href="#/rollouts/${esc(r.id)}">${esc(r.id)}</a></td>` +
      `<td>${esc(r.subscription)}</td><td>${esc(r.targetVersion)}</td><td>${stateLabel(r.state)}</td>` +
      `<td>${esc(when(r.startedAt))}</td><td>${countsBar(r.counts)}</td></tr>`).join('') +
    '</table>' + (page.nextCursor ? '<p>Showing the newest 100 rollouts.</p>' : '');
}

// clusters by step as one stacked SVG bar (widths are attributes, allowed by the CSP)
function countsBar(c) {
  const steps = ['Succeeded', 'Progressing', 'Failed', 'Blocked', 'StillFailed', 'RolledBack', 'Pending'];
  const key = (s) => s.charAt(0).toLowerCase() + s.slice(1);
  const total = c.clusters || steps.reduce((n, s) => n + (c[key(s)] || 0), 0) || 1;
  let x = 0;
  return '<svg data-test="counts" width="160" height="12">' + steps.map((s) => {
    const w = 160 * (c[key(s)] || 0) / total;
    const rect = w ? `<rect x="${x}" width="${w}" height="12" class="${tone(s)}"><title>${s}: ${c[key(s)]}</title></rect>` : '';
    x += w;
    return rect;
  }).join('') + '</svg>';
}

// Each wave's opened..completed span (its soak in a paler shade of the same colour) on one time axis from the rollout's start to its end
// (now while it runs).
function timeline(r) {
  const start = Date.parse(r.startedAt);
  const active = r.state === 'Progressing' || r.state === 'Paused';
  const end = Math.max(active ? Date.now() : Date.parse(r.updatedAt), start + 1000);
  const pct = (t) => (100 * (t - start) / (end - start)).toFixed(2);
  const groupBy = r.strategy && r.strategy.groupBy;
  const groups = [];
  r.waves.forEach((w) => {
    const g = groupBy ? (w.name === 'rest' ? `(no ${groupBy})` : w.name.replace(/\/\d+$/, '')) : '';
    if (!groups.length || groups[groups.length - 1].name !== g) { groups.push({name: g, waves: []}); }
    groups[groups.length - 1].waves.push(w);
  });
  let html = `<table id="waves"><tr><th>Wave</th><th>State</th><th>Opened</th><th>Completed</th><th data-test="axis">` +
    `${esc(when(r.startedAt))} … ${active ? 'now' : esc(when(r.updatedAt))}</th><th>Clusters</th><th>Succeeded</th>` +
    '<th>Failed</th><th>Held</th><th>Progress</th></tr>';
  groups.forEach((g) => {
    if (groupBy) { html += `<tr data-test="wave-group" data-group="${esc(g.name)}"><th colspan="10">${esc(g.name)}</th></tr>`; }
    g.waves.forEach((w) => {
      const state = waveState(r, w);
      let bar = '';
      if (w.openedAt) {
        const opened = Date.parse(w.openedAt);
        const soak = w.soakingSince ? Date.parse(w.soakingSince) : null;
        const closed = w.completedAt ? Date.parse(w.completedAt) : end;
        const runEnd = soak && soak < closed ? soak : closed;
        bar = `<rect class="${tone(state)}" data-test="span" x="${pct(opened)}%" ` +
          `width="${Math.max(0.5, pct(runEnd) - pct(opened))}%" height="14"><title>${esc(w.name)}: ${esc(when(w.openedAt))}` +
          ` … ${esc(when(w.completedAt) || 'now')}</title></rect>`;
        if (soak && soak < closed) {
          bar += `<rect class="soak ${tone(state === 'RolledBack' ? 'RolledBack' : 'Soaking')}" data-test="soak" ` +
            `x="${pct(soak)}%" width="${Math.max(0.5, pct(closed) - pct(soak))}%" height="14">` +
            `<title>soak from ${esc(when(w.soakingSince))}</title></rect>`;
        }
      }
      html += `<tr data-test="wave" data-wave="${esc(w.name)}" data-state="${esc(state)}"><td>${esc(w.name)}</td>` +
        `<td data-test="wave-state">${stateLabel(state)}</td><td>${esc(when(w.openedAt))}</td><td>${esc(when(w.completedAt))}</td>` +
        `<td data-test="axis"><svg data-test="timeline" width="100%" height="14">${bar}</svg></td><td>${w.clusters}</td>` +
        `<td data-test="wave-succeeded">${w.succeeded}</td><td>${w.failed}</td><td>${(w.blocked || 0) + (w.stillFailed || 0)}</td>` +
        `<td>${countsBar(Object.assign({}, w))}</td></tr>`;
    });
  });
  return html + '</table>';
}

// the rollout's history, newest last
// A rollout of several subscriptions: every target in the order each cluster takes them (providers first), each
// with its version, state and clusters by step; the target shown on this page is marked.
function targetsTable(r) {
  if (!r.targets || !r.targets.length) { return ''; }
  return `<h2>Targets</h2><p>Rollout <a href="#/rollouts/${esc(r.group)}">${esc(r.group)}</a> moves ` +
    `${r.targets.length} subscriptions; each cluster takes them in this order.</p>` +
    '<table id="targets"><tr><th>#</th><th>Subscription</th><th>Target</th><th>State</th><th>Clusters</th>' +
    '<th>Succeeded</th><th>Failed</th><th>Blocked</th><th>Progress</th></tr>' +
    r.targets.map((t, i) => `<tr data-test="target" data-subscription="${esc(t.subscription)}" data-rollout="${esc(t.rollout)}"` +
      `${t.rollout === r.id ? ' class="current"' : ''}><td>${i + 1}</td>` +
      `<td><a href="#/rollouts/${esc(t.rollout)}">${esc(t.subscription)}</a></td>` +
      `<td data-test="target-version">${esc(t.targetVersion)}</td><td>${stateLabel(t.state)}</td>` +
      `<td data-test="target-clusters">${t.counts.clusters || 0}</td><td data-test="target-succeeded">${t.counts.succeeded || 0}</td>` +
      `<td data-test="target-failed">${t.counts.failed || 0}</td><td data-test="target-blocked">${t.counts.blocked || 0}</td>` +
      `<td>${countsBar(t.counts)}</td></tr>`).join('') + '</table>';
}

function rolloutHistory(r) {
  const items = r.history || [];
  return '<h2>History</h2><table id="history"><tr><th>When</th><th>What</th><th>Wave</th><th>Who</th><th>Message</th></tr>' +
    items.map((h) => `<tr data-test="history" data-kind="${esc(h.kind)}"><td>${esc(when(h.at))}</td><td>${esc(h.kind)}</td>` +
      `<td>${esc(h.wave)}</td><td data-test="actor">${esc(h.actor)}</td><td>${esc(h.message)}</td></tr>`).join('') + '</table>';
}

// A failed (or held) member's own error: the agent's reason and message, beside what the rollout says of it; a
// member that is not moving for a known reason (WaitingForApproval, Frozen, OutsideWindow) shows that reason.
function memberError(c) {
  const rep = c.report;
  const agent = rep && (rep.phase === 'Failed' || c.state === 'Failed' || c.state === 'StillFailed')
    ? [rep.reason, rep.message].filter((x) => x).join(': ') : '';
  const own = c.reason
    ? `<span class="cluster-reason ${tone(c.reason.code)}" data-test="reason" data-reason="${esc(c.reason.code)}">${esc(c.reason.message)}</span>`
    : esc(c.message);
  return own + (agent && !(c.message || '').includes(agent) ? `<div class="agent-error">agent: ${esc(agent)}</div>` : '');
}

async function clustersTable(r) {
  if (rolloutPaging.id !== r.id) { Object.assign(rolloutPaging, {id: r.id, state: '', cursors: [null]}); }
  const cursor = rolloutPaging.cursors[rolloutPaging.cursors.length - 1];
  const page = await api(`/rollouts/${encodeURIComponent(r.id)}/clusters?limit=${CLUSTERS_PAGE}` +
    (rolloutPaging.state ? '&state=' + rolloutPaging.state : '') + (cursor ? '&cursor=' + cursor : ''));
  rolloutPaging.next = page.nextCursor || null;
  const filters = ['', 'Failed', 'StillFailed', 'Blocked', 'Progressing', 'Pending', 'Succeeded', 'RolledBack'];
  return '<h2>Clusters</h2><p id="cluster-filter">' + filters.map((s) => `<button data-rollout-filter="${s}"` +
      `${s === rolloutPaging.state ? ' class="selected"' : ''}>${s || 'All'}</button>`).join('') + '</p>' +
    '<table id="clusters"><tr><th>Cluster</th><th>Wave</th><th>State</th><th>Previous</th><th>Approved</th><th>Message</th></tr>' +
    page.items.map((c) => `<tr data-test="member" data-cluster="${esc(c.name)}"><td>${esc(c.name)}</td><td>${esc(c.wave)}</td>` +
      `<td class="state toned ${tone(c.state)}" data-test="state">${esc(c.state)}</td><td>${esc(c.previousVersion)}</td>` +
      `<td>${esc(c.approvedVersion)}</td><td>${memberError(c)}</td></tr>`).join('') + '</table>' +
    `<p class="pager" data-test="pager">Page ${rolloutPaging.cursors.length}` +
    (rolloutPaging.cursors.length > 1 ? ' <button data-rollout-page="prev">Previous</button>' : '') +
    (page.nextCursor ? ' <button data-rollout-page="next" id="clusters-next">Next</button>' : '') + '</p>';
}

async function rolloutView(id) {
  const r = await api('/rollouts/' + encodeURIComponent(id));
  const active = r.state === 'Progressing' || r.state === 'Paused';
  let html = `<h1>Rollout ${esc(r.id)}</h1><p>${esc(r.subscription)}: ${esc((r.fromVersions || []).join(', '))} → ` +
    `<b>${esc(r.targetVersion)}</b> · ${stateLabel(r.state, 'rollout-state')} ${esc(r.message || '')}</p>`;
  if (r.state === 'RolledBack') {
    const rb = (r.history || []).find((h) => h.kind === 'RolledBack');
    html += `<p class="toned ${tone('RolledBack')}" id="rolled-back">Rolled back${rb ? ` by ${esc(rb.actor)} at ${esc(when(rb.at))}` : ''}` +
      ': its clusters were sent back to the versions they ran before; no wave of it is live.</p>';
  }
  html += '<div class="cards">' + ['clusters', 'pending', 'progressing', 'succeeded', 'failed', 'blocked', 'stillFailed', 'rolledBack']
    .map((k) => `<div class="card"><div class="n" id="count-${k}">${r.counts[k] || 0}</div>${k}</div>`).join('') + '</div>';
  const me = await whoami();
  if (active && me.role !== 'viewer') {
    html += '<p>' + (r.state === 'Progressing' ? '<button data-cmd="pause">Pause</button><button data-cmd="promote">Promote</button>'
      : '<button data-cmd="resume">Resume</button>') + '<button data-cmd="abort">Abort</button><button data-cmd="rollback">Roll back</button>' +
      '<span id="cmd-error" class="error"></span></p>';
  }
  html += targetsTable(r);
  html += '<h2>Waves</h2>' + legend(['Pending', 'Open', 'Soaking', 'WaitingForWindow', 'Succeeded', 'RolledBack']) + timeline(r) +
    rolloutHistory(r) + await clustersTable(r);
  return html;
}

// filter and paging of the clusters table
document.addEventListener('click', (ev) => {
  const d = ev.target.dataset || {};
  if (d.rolloutFilter !== undefined) {
    Object.assign(rolloutPaging, {state: d.rolloutFilter, cursors: [null]});
  } else if (d.rolloutPage === 'next' && rolloutPaging.next) {
    rolloutPaging.cursors.push(rolloutPaging.next);
  } else if (d.rolloutPage === 'prev' && rolloutPaging.cursors.length > 1) {
    rolloutPaging.cursors.pop();
  } else {
    return;
  }
  render();
});

page(/^#\/rollouts\/([^/?]+)$/, (m) => rolloutView(decodeURIComponent(m[1])));
page(/^#\/rollouts$/, () => rolloutsView());

// Commands (operator role); the server refuses them for viewer tokens and the message is shown.
document.addEventListener('click', async (ev) => {
  const cmd = ev.target.dataset && ev.target.dataset.cmd;
  const m = (location.hash || '').match(/^#\/rollouts\/([^/]+)$/);
  if (!cmd || !m) { return; }
  try { await api('/rollouts/' + m[1] + '/' + cmd, {method: 'POST'}); render(); }
  catch (e) { const el = document.querySelector('#cmd-error'); if (el) { el.textContent = e.message; } }
});
