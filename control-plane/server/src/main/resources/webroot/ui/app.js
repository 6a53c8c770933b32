// Olmstead dashboard: ES modules, no build step. This is the entry module: it loads the page modules (each registers
// its routes with router.js), wires the sign-in form, and follows /events (Server-Sent Events read through fetch,
// since EventSource cannot send a token), redrawing the page when something changes.
import {API, TOKEN_KEY, $, token, showLogin} from './core.js';
import {render, scheduleRender} from './router.js';
import './fleet.js';
import './matrix.js';
import './cluster.js';
import './approvals.js';
import './rollouts.js';
import './adoption.js';
import './preview.js';
import './login.js';

// The stream holds one of the browser's six HTTP/1.1 connections to this host for as long as it is open. A page left
// for another one goes to the back/forward cache with its fetches still open, and Chromium keeps it there up to 60 s
// before evicting it for that open request: a few pages left in a row held every connection and the next page's
// requests waited for them. So the stream closes when the page is hidden (pagehide) and opens again when it is shown
// (pageshow), as web.dev's bfcache guidance asks of open connections.
let stream = null; // the AbortController of the open stream, null while the page is hidden
window.addEventListener('pagehide', () => { if (stream) { stream.abort(); stream = null; } });
window.addEventListener('pageshow', (ev) => { if (ev.persisted) { render(); follow(); } });

async function follow() {
  if (stream) { return; }
  const mine = stream = new AbortController();
  while (stream === mine) {
    if (!token()) { await new Promise((r) => setTimeout(r, 1000)); continue; }
    try {
      const res = await fetch(API + '/events?follow=true',
        {headers: {'Authorization': 'Bearer ' + token()}, signal: mine.signal});
      if (!res.ok) { throw new Error(String(res.status)); }
      $('#live').className = 'live tone-succeeded';
      const reader = res.body.getReader(), decoder = new TextDecoder();
      let buffer = '';
      while (true) {
        const {value, done} = await reader.read();
        if (done) { break; }
        buffer += decoder.decode(value, {stream: true});
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, i); buffer = buffer.slice(i + 2);
          // window.olmsteadEvents: a test hook (RolloutDashboardIT counts the events the page received)
          if (frame.split('\n').some((l) => l.startsWith('data:'))) { window.olmsteadEvents = (window.olmsteadEvents || 0) + 1; scheduleRender(); }
        }
      }
    } catch (e) { /* reconnect below */ }
    $('#live').className = 'live tone-unknown';
    await new Promise((r) => setTimeout(r, 2000));
  }
}

// Module scripts run once the document is parsed: every page module has registered by now.
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
