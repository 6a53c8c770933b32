// Olmstead dashboard: plain JS, no build step. Reads the REST API with the token kept in sessionStorage and
// follows GET /api/v1/events (Server-Sent Events read through fetch, since EventSource cannot send a token).
'use strict';
const API = '/api/v1';
const TOKEN_KEY = 'olmstead.token';
const $ = (sel) => document.querySelector(sel);
const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
  '"': '&quot;', "'": '&#39;'}[c]));
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

function showLogin(message) {
  $('#login').hidden = false; $('#view').innerHTML = ''; $('#logout').hidden = true;
  $('#login-error').textContent = message || '';
}

async function fleetView() {
  const [clusters, subs] = await Promise.all([all('/clusters'), all('/subscriptions')]);
  const byStatus = {}, byRegion = {};
  clusters.forEach((c) => {
    byStatus[c.status] = (byStatus[c.status] || 0) + 1;
    const region = (c.labels && (c.labels.region || c.labels['topology.kubernetes.io/region'])) || '(none)';
    byRegion[region] = byRegion[region] || {};
    byRegion[region][c.status] = (byRegion[region][c.status] || 0) + 1;
  });
  const statuses = await Promise.all(subs.map((s) => api('/subscriptions/' + s.name + '/status?limit=1').catch(() => null)));
  let html = '<h1>Fleet</h1><div class="cards">' +
    `<div class="card"><div class="n" id="clusters-total">${clusters.length}</div>clusters</div>` +
    Object.keys(byStatus).sort().map((k) => `<div class="card"><div class="n" data-status="${esc(k)}">${byStatus[k]}</div>${esc(k)}</div>`).join('') +
    '</div><h2>By region</h2><table><tr><th>Region</th><th>connected</th><th>disconnected</th><th>pending</th></tr>' +
    Object.keys(byRegion).sort().map((r) => `<tr><td>${esc(r)}</td><td>${byRegion[r].connected || 0}</td>` +
      `<td>${byRegion[r].disconnected || 0}</td><td>${byRegion[r].pending || 0}</td></tr>`).join('') + '</table>' +
    '<h2>Subscriptions</h2><table><tr><th>Name</th><th>Package</th><th>Policy</th><th>Versions across the fleet</th></tr>';
  subs.forEach((s, i) => {
    const st = statuses[i], byVersion = (st && st.byVersion) || {};
    html += `<tr><td>${esc(s.name)}</td><td>${esc(s.package)}</td><td>${esc(s.version && (s.version.pin || s.version.range || s.version.follow || JSON.stringify(s.version)))}</td>` +
      `<td class="versions">${Object.keys(byVersion).sort().map((v) => `<span data-version="${esc(v)}">${esc(v)}: <b>${byVersion[v]}</b></span>`).join(' · ')}</td></tr>`;
  });
  return html + '</table>';
}

// rolloutsView() and rolloutView(id): rollouts.js

async function render() {
  if (!token()) { showLogin(); return; }
  $('#login').hidden = true; $('#logout').hidden = false;
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/rollouts\/([^/]+)$/);
  try {
    const adoption = hash.match(/^#\/adoption(?:\/([^/]+))?$/);
    const html = adoption ? await adoptionView(adoption[1] && decodeURIComponent(adoption[1]))
      : m ? await rolloutView(decodeURIComponent(m[1])) : hash.startsWith('#/rollouts') ? await rolloutsView() : await fleetView();
    $('#view').innerHTML = html;
    // widths are set through the DOM: the Content-Security-Policy allows no inline style attributes
    document.querySelectorAll('#view [data-width]').forEach((el) => { el.style.width = el.dataset.width + '%'; });
    $('#view').dataset.rendered = String(Date.now());
  } catch (e) {
    if (e.message !== '401') { $('#view').innerHTML = `<p class="error">${esc(e.message)}</p>`; }
  }
}

// Commands (operator role); the server refuses them for viewer tokens and the message is shown.
document.addEventListener('click', async (ev) => {
  const cmd = ev.target.dataset && ev.target.dataset.cmd;
  const m = (location.hash || '').match(/^#\/rollouts\/([^/]+)$/);
  if (!cmd || !m) { return; }
  try { await api('/rollouts/' + m[1] + '/' + cmd, {method: 'POST'}); render(); }
  catch (e) { const el = $('#cmd-error'); if (el) { el.textContent = e.message; } }
});

// Each event says what changed; re-render at most every 300 ms.
function scheduleRender() {
  if (refreshTimer) { return; }
  refreshTimer = setTimeout(() => { refreshTimer = null; render(); }, 300);
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

$('#login-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $('#token').value.trim());
  $('#token').value = '';
  render();
});
$('#logout').addEventListener('click', () => { sessionStorage.removeItem(TOKEN_KEY); showLogin(); });
window.addEventListener('hashchange', render);
render();
follow();
