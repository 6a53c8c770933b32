// Approvals page (#/approvals?subscription=&selector=&cursor=): every cluster waiting for a manual approval
// (GET /approvals, one page at a time), approved one at a time (POST /clusters/{name}/approvals) or every waiting
// cluster of a subscription and bundle the selector picks at once (POST /approvals). Viewers see no buttons.
import {api, esc, enc, whoami, hashParams, hashWith} from './core.js';
import {page, render} from './router.js';

let lastResult = ''; // what the last approval did, shown until the next one

async function approvalsView() {
  const p = hashParams();
  const q = ['subscription', 'selector'].filter((k) => p[k]).map((k) => k + '=' + enc(p[k])).join('&');
  const [page, me] = await Promise.all([
    api('/approvals?limit=100' + (q ? '&' + q : '') + (p.cursor ? '&cursor=' + enc(p.cursor) : '')), whoami()]);
  const operator = me.role !== 'viewer';
  // the (subscription, bundle) pairs on this page: one "approve all" each, for every waiting cluster the filter picks
  const groups = {};
  page.items.forEach((w) => { if (w.bundle) { groups[w.subscription + '\u0000' + w.bundle] = {subscription: w.subscription, bundle: w.bundle}; } });
  let html = '<h1>Approvals</h1><form id="approvals-filter" class="filter">' +
    `<label>Subscription <input name="subscription" value="${esc(p.subscription || '')}" size="20"></label> ` +
    `<label>Label selector <input name="selector" value="${esc(p.selector || '')}" size="36"></label> ` +
    '<button type="submit">Apply</button></form><p id="approve-result">' + esc(lastResult) + '</p><p id="approve-error" class="error"></p>';
  if (operator && Object.keys(groups).length) {
    html += '<p>' + Object.values(groups).map((g) => `<button data-test="approve-all" data-subscription="${esc(g.subscription)}" ` +
      `data-bundle="${esc(g.bundle)}">Approve ${esc(g.bundle)} on every waiting cluster of ${esc(g.subscription)}` +
      `${p.selector ? ' matching ' + esc(p.selector) : ''}</button>`).join(' ') + '</p>';
  }
  html += '<table id="waiting"><tr><th>Subscription</th><th>Cluster</th><th>Installed</th><th>Waits for</th><th>Approved</th>' +
    '<th>Since</th>' + (operator ? '<th></th>' : '') + '</tr>' +
    page.items.map((w) => `<tr data-test="waiting" data-cluster="${esc(w.cluster)}" data-subscription="${esc(w.subscription)}">` +
      `<td>${esc(w.subscription)}</td><td><a href="#/clusters/${esc(enc(w.cluster))}">${esc(w.cluster)}</a></td>` +
      `<td>${esc(w.installedVersion || 'none')}</td><td data-test="bundle">${esc(w.bundle)}</td><td data-test="approved">${esc(w.approvedBundle || '')}</td>` +
      `<td>${esc(w.since)}</td>` + (operator ? `<td>${w.bundle && w.approvedBundle !== w.bundle ? `<button data-test="approve-one" data-cluster="${esc(w.cluster)}" ` +
        `data-subscription="${esc(w.subscription)}" data-bundle="${esc(w.bundle)}">Approve</button>` : ''}</td>` : '') + '</tr>').join('') + '</table>' +
    (page.items.length === 0 ? '<p class="muted" id="none-waiting">No cluster waits for an approval.</p>' : '') +
    (page.nextCursor ? `<p><a id="next-approvals" href="${esc(hashWith('#/approvals', {subscription: p.subscription, selector: p.selector, cursor: page.nextCursor}))}">Next page →</a></p>` : '');
  return html;
}

function wire(view) {
  const form = view.querySelector('#approvals-filter');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.hash = hashWith('#/approvals', Object.fromEntries(new FormData(form)));
  });
  const done = (text) => { lastResult = text; render(); };
  const failed = (e) => { view.querySelector('#approve-error').textContent = e.message; };
  view.querySelectorAll('button[data-test=approve-one]').forEach((b) => b.addEventListener('click', () => {
    api('/clusters/' + enc(b.dataset.cluster) + '/approvals', {method: 'POST',
      body: JSON.stringify({subscription: b.dataset.subscription, bundle: b.dataset.bundle})})
      .then(() => done(`Approved ${b.dataset.bundle} on ${b.dataset.cluster}.`), failed);
  }));
  view.querySelectorAll('button[data-test=approve-all]').forEach((b) => b.addEventListener('click', () => {
    const body = {subscription: b.dataset.subscription, bundle: b.dataset.bundle};
    const selector = hashParams().selector;
    if (selector) { body.selector = selector; }
    api('/approvals', {method: 'POST', body: JSON.stringify(body)})
      .then((r) => done(`Approved ${r.bundle} on ${r.approved.length} clusters.`), failed);
  }));
}

page(/^#\/approvals$/, approvalsView, wire);
