// The dashboard's common helpers (an ES module, no build step): the API calls with the token kept in sessionStorage,
// HTML escaping, the hash's query, relative ages, and the sign-in form's visibility.
export const API = '/api/v1';
export const TOKEN_KEY = 'olmstead.token';
export const $ = (sel) => document.querySelector(sel);
export const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
  '"': '&quot;', "'": '&#39;'}[c]));
export const enc = encodeURIComponent;

export function token() { return sessionStorage.getItem(TOKEN_KEY); }

// With no message the error already shown stays: login.js may have put the SSO answer's refusal there before the
// first render (its config fetch can finish before the first page is drawn).
export function showLogin(message) {
  $('#login').hidden = false; $('#view').innerHTML = ''; $('#logout').hidden = true;
  if (message !== undefined) { $('#login-error').textContent = message; }
}

export async function api(path, options = {}) {
  const res = await fetch(API + path, Object.assign({}, options, {
    headers: Object.assign({'Authorization': 'Bearer ' + token()}, options.body ? {'Content-Type': 'application/json'} : {})
  }));
  if (res.status === 401) { sessionStorage.removeItem(TOKEN_KEY); showLogin('The token was refused.'); throw new Error('401'); }
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) { throw new Error((body && (body.detail || body.title)) || res.statusText); }
  return body;
}

// The caller's role, asked once per token: viewers are not shown commands they may not use.
let caller = null;
export async function whoami() {
  if (!caller || caller.token !== token()) { caller = {token: token(), me: api('/whoami')}; }
  return caller.me;
}

// The query part of the current hash (#/fleet?selector=a%3Db) as an object, and a hash built from one.
export function hashParams() {
  const q = (location.hash || '').split('?')[1] || '';
  return Object.fromEntries(new URLSearchParams(q));
}
export function hashWith(path, params) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== '')).toString();
  return path + (q ? '?' + q : '');
}

// A relative age ("3 min ago") with the full timestamp in its title; "" for no time.
export function ago(iso, now = Date.now()) {
  if (!iso) { return ''; }
  const t = Date.parse(iso);
  if (isNaN(t)) { return esc(iso); }
  const s = Math.round((now - t) / 1000), future = s < 0, a = Math.abs(s);
  const text = a < 60 ? a + ' s' : a < 3600 ? Math.floor(a / 60) + ' min' : a < 172800 ? Math.floor(a / 3600) + ' h'
    : Math.floor(a / 86400) + ' d';
  return `<time data-test="age" datetime="${esc(iso)}" title="${esc(new Date(t).toISOString())}">` +
    (future ? 'in ' + text : text + ' ago') + '</time>';
}
