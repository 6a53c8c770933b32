// Matrix page (#/matrix?selector=&subscriptions=&sort=&cursor=): one row per cluster (a link to its page), one column
// per subscription (up to 20), each cell the installed version and phase and, when the cluster is not at its target,
// the reason (WaitingForApproval, Frozen, OutsideWindow, Failed, Disconnected). Column headers sort by version or phase
// (GET /fleet/matrix does the sorting and the keyset paging over the whole fleet).
import {api, esc, enc, hashParams, hashWith, ago} from './core.js';
import {page} from './router.js';
import {tone} from './palette.js';

const PAGE = 50;

function sortLink(p, sort, text) {
  const current = p.sort || 'name';
  const next = current === sort ? '-' + sort : sort;
  const arrow = current === sort ? ' ↑' : current === '-' + sort ? ' ↓' : '';
  return `<a data-test="sort" data-sort="${esc(sort)}" href="${esc(hashWith('#/matrix', {selector: p.selector,
    subscriptions: p.subscriptions, sort: next}))}">${esc(text)}${arrow}</a>`;
}

function cell(c) {
  if (!c) { return '<td class="cell" data-test="none">–</td>'; }
  const reason = c.reason ? `<div class="cluster-reason ${tone(c.reason.code)}" data-test="reason" data-code="${esc(c.reason.code)}" title="${esc(c.reason.message)}">` +
    `${esc(c.reason.message)}</div>` : '';
  return `<td class="cell"><span data-test="version">${esc(c.installedVersion || 'none')}</span> ` +
    `<span class="toned ${tone(c.phase)}" data-test="phase">${esc(c.phase || 'Unknown')}</span>` +
    `<div class="muted small">${ago(c.updatedAt)}</div>${reason}</td>`;
}

async function matrixView() {
  const p = hashParams();
  const q = {limit: PAGE, selector: p.selector, subscriptions: p.subscriptions, sort: p.sort, cursor: p.cursor};
  const m = await api(hashWith('/fleet/matrix', q));
  const subs = m.subscriptions.map((s) => s.name);
  let html = '<h1>Matrix</h1><form id="matrix-filter" class="filter">' +
    `<label>Label selector <input id="matrix-selector" size="36" placeholder="env=prod" value="${esc(p.selector || '')}"></label> ` +
    `<label>Subscriptions <input id="matrix-subscriptions" size="36" placeholder="first 20 by name" value="${esc(p.subscriptions || '')}"></label> ` +
    '<button type="submit">Apply</button></form>';
  if (m.items.length === 0) { return html + '<p id="matrix-empty" class="muted">No cluster matches.</p>'; }
  html += '<table id="matrix" class="matrix"><tr><th>' + sortLink(p, 'name', 'Cluster') + '</th><th>Status</th>' +
    subs.map((s) => `<th data-subscription="${esc(s)}">${esc(s)}<br><small>${sortLink(p, 'version:' + s, 'version')} · ` +
      `${sortLink(p, 'phase:' + s, 'phase')}</small></th>`).join('') + '</tr>' +
    m.items.map((r) => `<tr data-cluster="${esc(r.cluster)}"><td><a href="#/clusters/${esc(enc(r.cluster))}">${esc(r.cluster)}</a></td>` +
      `<td class="toned ${tone(r.status)}" data-test="status">${esc(r.status)}</td>` +
      subs.map((s) => cell(r.cells[s]).replace('<td class="cell', `<td data-subscription="${esc(s)}" class="cell`)).join('') +
      '</tr>').join('') + '</table>';
  const first = hashWith('#/matrix', {selector: p.selector, subscriptions: p.subscriptions, sort: p.sort});
  html += '<p class="pager" data-test="pager">' + (p.cursor ? `<a id="matrix-first" href="${esc(first)}">← First page</a> ` : '') +
    (m.nextCursor ? `<a id="matrix-next" href="${esc(hashWith('#/matrix', {selector: p.selector,
      subscriptions: p.subscriptions, sort: p.sort, cursor: m.nextCursor}))}">Next ${PAGE} clusters →</a>` : '') + '</p>';
  return html;
}

function after(view) {
  const form = view.querySelector('#matrix-filter');
  if (!form) { return; }
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.hash = hashWith('#/matrix', {selector: view.querySelector('#matrix-selector').value.trim(),
      subscriptions: view.querySelector('#matrix-subscriptions').value.replace(/\s+/g, '')});
  });
}

page(/^#\/matrix$/, matrixView, after);
