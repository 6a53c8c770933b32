// Olmstead dashboard: plain JS, no build step. This file is the common part: the API helpers (the token kept in
// sessionStorage), the router that page files register with, the login form and the /events follower (Server-Sent
// Events read through fetch, since EventSource cannot send a token). Each page lives in its own file (fleet.js,
// cluster.js, approvals.js...) and calls Olm.page(pattern, render) when it loads.
'use strict';
const API = '/api/v1';
const TOKEN_KEY = 'olmstead.token';
const $ = (sel) => document.querySelector(sel);
const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
  '"': '&quot;', "'": '&#39;'}[c]));
const enc = encodeURIComponent;
let refreshTimer = null;

function token() { return sessionStorage.getItem(TOKEN_KEY); }

// The caller's role, asked once per token: viewers are not shown commands they may not use.
let caller = null;
async function whoami() {
  if (!caller || caller.token !== token()) { caller = {token: token(), me: api('/whoami')}; }
  return caller.me;
}

async function api(path, options = {}) {
  const res = await fetch(API + path, Object.assign({}, options, {
    headers: Object.assign({'Authorization': 'Bearer ' + token()}, options.body ? {'Content-Type': 'application/json'} : {})
  }));
  if (res.status === 401) { sessionStorage.removeItem(TOKEN_KEY); showLogin('The token was refused.'); throw new Error('401'); }
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) { throw new Error((body && (body.detail || body.title)) || res.statusText); }
  return body;
}

async function all(path) {
  let items = [], cursor = null;
  do {
    const page = await api(path + (path.includes('?') ? '&' : '?') + 'limit=500' + (cursor ? '&cursor=' + cursor : ''));
    items = items.concat(page.items || []);
    cursor = page.nextCursor;
  } while (cursor && items.length < 20000);
  return items;
}

// The query part of the current hash (#/fleet?selector=a%3Db) as an object, and a hash built from one.
function hashParams() {
  const q = (location.hash || '').split('?')[1] || '';
  return Object.fromEntries(new URLSearchParams(q));
}
function hashWith(path, params) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== '')).toString();
  return path + (q ? '?' + q : '');
}

// the agent's own error on a cluster that reports Failed, unless the rollout's message already carries it
function agentNote(c) {
  const r = c.report;
  if (!r || r.phase !== 'Failed') { return ''; }
  const text = [r.reason, r.message].filter((x) => x).join(': ');
  return text && !(c.message || '').includes(text) ? `<div class="agent-error">agent: ${esc(text)}</div>` : '';
}

// With no message the error already shown stays: login.js may have put the SSO answer's refusal there before the
// first render (its config fetch can finish before DOMContentLoaded).
function showLogin(message) {
  $('#login').hidden = false; $('#view').innerHTML = ''; $('#logout').hidden = true;
  if (message !== undefined) { $('#login-error').textContent = message; }
}

// A relative age ("3 min ago") with the full timestamp in its title; "" for no time.
function ago(iso, now = Date.now()) {
  if (!iso) { return ''; }
  const t = Date.parse(iso);
  if (isNaN(t)) { return esc(iso); }
  const s = Math.round((now - t) / 1000), future = s < 0, a = Math.abs(s);
  const text = a < 60 ? a + ' s' : a < 3600 ? Math.floor(a / 60) + ' min' : a < 172800 ? Math.floor(a / 3600) + ' h'
    : Math.floor(a / 86400) + ' d';
  return `<time class="ago" datetime="${esc(iso)}" title="${esc(new Date(t).toISOString())}">` +
    (future ? 'in ' + text : text + ' ago') + '</time>';
}

function bar(c, total) {
  const parts = ['succeeded', 'progressing', 'failed', 'blocked', 'rolledBack'];
  return '<div class="bar">' + parts.map((k) => c[k] ? `<span class="s-${k}" data-width="${100 * c[k] / total}"></span>` : '')
    .join('') + '</div>';
}

// Pages: [pattern on the hash without its query, render(match) → html, after(view) run once the html is in place].
const pages = [];
const Olm = {
  page(pattern, renderFn, after) { pages.push({pattern, render: renderFn, after}); },
  api, all, esc, enc, whoami, hashParams, hashWith, bar, agentNote, ago, render: () => render()
};
window.Olm = Olm;

// Rollouts and adoption pages: rollouts.js and adoption.js (loaded before this file) define the views.
Olm.page(/^#\/rollouts\/([^/?]+)$/, (m) => rolloutView(decodeURIComponent(m[1])));
Olm.page(/^#\/rollouts$/, () => rolloutsView());
Olm.page(/^#\/adoption(?:\/([^/?]+))?$/, (m) => adoptionView(m[1] && decodeURIComponent(m[1])));

// Commands (operator role); the server refuses them for viewer tokens and the message is shown.
document.addEventListener('click', async (ev) => {
  const cmd = ev.target.dataset && ev.target.dataset.cmd;
  const m = (location.hash || '').match(/^#\/rollouts\/([^/]+)$/);
  if (!cmd || !m) { return; }
  try { await api('/rollouts/' + m[1] + '/' + cmd, {method: 'POST'}); render(); }
  catch (e) { const el = $('#cmd-error'); if (el) { el.textContent = e.message; } }
});

// Renders overlap (an event's re-render still fetching when the user moves to another page): only the newest one
// may draw, or a slower render of the page just left would overwrite the page now shown.
let renderGeneration = 0;

async function render() {
  const generation = ++renderGeneration;
  if (!token()) { showLogin(); return; }
  $('#login').hidden = true; $('#logout').hidden = false;
  const hash = (location.hash || '#/').split('?')[0];
  let page = null, m = null;
  for (const p of pages) { m = hash.match(p.pattern); if (m) { page = p; break; } }
  page = page || pages.find((p) => p.pattern.test('#/'));
  try {
    const html = await page.render(m || []);
    if (generation !== renderGeneration) { return; }
    // a page that keeps focus in a form (a filter being typed) renders nothing to keep it
    if (html != null) { $('#view').innerHTML = html; }
    // widths are set through the DOM: the Content-Security-Policy allows no inline style attributes
    document.querySelectorAll('#view [data-width]').forEach((el) => { el.style.width = el.dataset.width + '%'; });
    if (page.after) { page.after($('#view')); }
    $('#view').dataset.rendered = String(Date.now());
    // the first page drawn with its data (charts included): what the benchmark reads as first meaningful paint
    if (!performance.getEntriesByName('olmstead:rendered').length) { performance.mark('olmstead:rendered'); }
  } catch (e) {
    if (generation !== renderGeneration) { return; }
    if (e.message !== '401') { $('#view').innerHTML = `<p class="error">${esc(e.message)}</p>`; }
  }
}

// Each event says what changed; re-render at most every 300 ms.
// While a filter is being typed the page waits: re-rendering would drop what was typed.
function scheduleRender() {
  if (refreshTimer) { return; }
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    const a = document.activeElement;
    if (a && a.tagName === 'INPUT' && $('#view').contains(a)) { scheduleRender(); return; }
    render();
  }, 300);
}

async function follow() {
  while (true) {
    if (!token()) { await new Promise((r) => setTimeout(r, 1000)); continue; }
    try {
      const res = await fetch(API + '/events?follow=true', {headers: {'Authorization': 'Bearer ' + token()}});
      if (!res.ok) { throw new Error(String(res.status)); }
      $('#live').className = 'live on';
      const reader = res.body.getReader(), decoder = new TextDecoder();
      let buffer = '';
      while (true) {
        const {value, done} = await reader.read();
        if (done) { break; }
        buffer += decoder.decode(value, {stream: true});
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, i); buffer = buffer.slice(i + 2);
          if (frame.split('\n').some((l) => l.startsWith('data:'))) { window.olmsteadEvents = (window.olmsteadEvents || 0) + 1; scheduleRender(); }
        }
      }
    } catch (e) { /* reconnect below */ }
    $('#live').className = 'live off';
    await new Promise((r) => setTimeout(r, 2000));
  }
}

// Scripts are loaded with defer, in order: every page file has registered when the document is parsed.
document.addEventListener('DOMContentLoaded', () => {
  $('#login-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $('#token').value.trim());
    $('#token').value = '';
    render();
  });
  $('#logout').addEventListener('click', () => { sessionStorage.removeItem(TOKEN_KEY); showLogin(''); });
  window.addEventListener('hashchange', render);
  render();
  follow();
});
