// The router: page modules register [pattern on the hash without its query, render(match) → html, after(view)] with
// page(); render() draws the page the hash names, scheduleRender() redraws at most every 300 ms on live events.
import {$, esc, token, showLogin} from './core.js';

const pages = [];
let refreshTimer = null;
// Renders overlap (an event's re-render still fetching when the user moves to another page): only the newest one
// may draw, or a slower render of the page just left would overwrite the page now shown.
let renderGeneration = 0;
let rendering = null; // the render under way, if any

export function page(pattern, renderFn, after) { pages.push({pattern, render: renderFn, after}); }

// A render the user asked for (sign-in, a link, a filter) replaces one under way.
export function render() {
  const drawing = draw();
  rendering = drawing;
  drawing.finally(() => { if (rendering === drawing) { rendering = null; } });
  return drawing;
}

async function draw() {
  const generation = ++renderGeneration;
  if (!token()) { showLogin(); return; }
  $('#login').hidden = true; $('#logout').hidden = false;
  const hash = (location.hash || '#/').split('?')[0];
  let found = null, m = null;
  for (const p of pages) { m = hash.match(p.pattern); if (m) { found = p; break; } }
  found = found || pages.find((p) => p.pattern.test('#/'));
  try {
    const html = await found.render(m || []);
    if (generation !== renderGeneration) { return; }
    // a page that keeps focus in a form (a filter being typed) renders nothing to keep it
    if (html != null) { $('#view').innerHTML = html; }
    // widths are set through the DOM: the Content-Security-Policy allows no inline style attributes
    document.querySelectorAll('#view [data-width]').forEach((el) => { el.style.width = el.dataset.width + '%'; });
    if (found.after) { found.after($('#view')); }
    $('#view').dataset.rendered = String(Date.now());
    // the first page drawn with its data (charts included): what the benchmark reads as first meaningful paint
    if (!performance.getEntriesByName('olmstead:rendered').length) { performance.mark('olmstead:rendered'); }
  } catch (e) {
    if (generation !== renderGeneration) { return; }
    if (e.message !== '401') { $('#view').innerHTML = `<p class="error">${esc(e.message)}</p>`; }
  }
}

// Each event says what changed; re-render at most every 300 ms, and never in place of a render under way: it
// follows that one, or events arriving faster than a page renders (a fleet of thousands changing) would replace
// every render before it draws and the page would stay blank. While a filter is being typed the page waits:
// re-rendering would drop what was typed.
export function scheduleRender() {
  if (refreshTimer) { return; }
  refreshTimer = setTimeout(async () => {
    const a = document.activeElement;
    if (a && a.tagName === 'INPUT' && $('#view').contains(a)) { refreshTimer = null; scheduleRender(); return; }
    while (rendering) { await rendering; } // refreshTimer still set: the events meanwhile are this render's
    refreshTimer = null;
    render();
  }, 300);
}
