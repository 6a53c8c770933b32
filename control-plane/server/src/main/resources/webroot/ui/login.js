// "Sign in with SSO": the OAuth 2.0 authorization code flow with PKCE (S256) run in the browser, offered when
// /ui/config.json names an OIDC issuer. The code comes back to /ui/ and is exchanged at the issuer's token endpoint
// with the verifier kept in this tab's sessionStorage; the token (ID or access, as the config says) is then the
// dashboard's bearer token, verified by the control plane like any OIDC token. An ES module, no build step.
import {TOKEN_KEY} from './core.js';
import {render} from './router.js';

const TOKEN = TOKEN_KEY;
const FLOW = 'olmstead.sso'; // {verifier, state, hash} of the sign-in under way
const redirectUri = location.origin + location.pathname;

function b64url(bytes) {
  return btoa(String.fromCharCode.apply(null, new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_')
    .replace(/=+$/, '');
}
function random() { const a = new Uint8Array(32); crypto.getRandomValues(a); return b64url(a); }
async function s256(verifier) { return b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))); }

function fail(message) {
  const el = document.getElementById('login-error');
  if (el) { el.textContent = message; }
  const login = document.getElementById('login');
  if (login) { login.hidden = false; }
}

async function signIn(oidc) {
  const flow = {verifier: random(), state: random(), hash: location.hash || '#/'};
  sessionStorage.setItem(FLOW, JSON.stringify(flow));
  const url = new URL(oidc.authorizationEndpoint);
  const params = {response_type: 'code', client_id: oidc.clientId, redirect_uri: redirectUri, scope: oidc.scopes,
    state: flow.state, code_challenge: await s256(flow.verifier), code_challenge_method: 'S256'};
  Object.keys(params).forEach((k) => url.searchParams.set(k, params[k]));
  location.assign(url.toString());
}

// back from the issuer with ?code=...&state=... (or ?error=...)
async function finish(oidc, query) {
  const flow = JSON.parse(sessionStorage.getItem(FLOW) || 'null');
  sessionStorage.removeItem(FLOW);
  history.replaceState(null, '', redirectUri + ((flow && flow.hash) || '#/'));
  if (query.get('error')) { fail('Single sign-on failed: ' + query.get('error') + ' ' + (query.get('error_description') || '')); return; }
  if (!flow || query.get('state') !== flow.state) { fail('Single sign-on failed: the answer does not match this sign-in (state).'); return; }
  const res = await fetch(oidc.tokenEndpoint, {method: 'POST', body: new URLSearchParams({grant_type: 'authorization_code',
    code: query.get('code'), redirect_uri: redirectUri, client_id: oidc.clientId, code_verifier: flow.verifier})});
  const body = await res.json().catch(() => ({}));
  const token = res.ok && body[oidc.token];
  if (!token) { fail('Single sign-on failed: the issuer gave no ' + oidc.token + ' (' + (body.error || res.status) + ').'); return; }
  sessionStorage.setItem(TOKEN, token);
  render();
}

async function init() {
  let config = {};
  try { config = await (await fetch('/ui/config.json')).json(); } catch (e) { return; }
  const oidc = config.oidc;
  const login = document.getElementById('login');
  if (!oidc) {
    if (config.oidcError && login) { fail(config.oidcError); }
    return;
  }
  if (login && !document.getElementById('sso-login')) {
    const p = document.createElement('p');
    const button = document.createElement('button');
    button.id = 'sso-login'; button.type = 'button'; button.textContent = 'Sign in with SSO';
    button.addEventListener('click', () => signIn(oidc).catch((e) => fail('Single sign-on failed: ' + e.message)));
    p.appendChild(button);
    login.insertBefore(p, login.querySelector('p') || null);
  }
  const query = new URLSearchParams(location.search);
  if (query.get('code') || query.get('error')) { await finish(oidc, query).catch((e) => fail('Single sign-on failed: ' + e.message)); }
}
init();
