// Adoption over time: per subscription, clusters by installed version as a stacked area chart (Chart.js from its
// WebJar, /ui/lib/chart.js/...) over the last hours or days, from GET /subscriptions/{name}/adoption. Plain JS, no
// build. A version's colour is one of the palette's series colours (--series-1..8), which carry no state meaning.
import {api, esc} from './core.js';
import {page, render} from './router.js';
import {cssColour} from './palette.js';

const ADOPTION_RANGES = {PT6H: 'PT6H', PT24H: 'PT24H', P7D: 'P7D', P30D: 'P30D'};
const SERIES = 8;
let adoptionSince = 'PT24H';
let adoptionChart = null;

function adoptionLabel(iso, since) {
  const d = new Date(iso).toISOString();
  return since === 'PT6H' || since === 'PT24H' ? d.slice(11, 16) : d.slice(5, 16).replace('T', ' ');
}

async function adoptionView(name) {
  const subs = await api('/subscriptions?limit=500');
  const chosen = name || (subs.items[0] && subs.items[0].name);
  let html = '<h1>Adoption</h1><p id="adoption-subscriptions">' + subs.items.map((s) =>
    `<a href="#/adoption/${encodeURIComponent(s.name)}"${s.name === chosen ? ' class="selected"' : ''}>${esc(s.name)}</a>`).join(' · ') + '</p>';
  if (!chosen) { return html + '<p>No subscription yet.</p>'; }
  const data = await api(`/subscriptions/${encodeURIComponent(chosen)}/adoption?since=${adoptionSince}`);
  html += '<p id="adoption-ranges">' + Object.keys(ADOPTION_RANGES).map((r) => `<button data-adoption-since="${r}"` +
      `${r === adoptionSince ? ' class="selected"' : ''}>${r.replace(/^PT?/, '').toLowerCase()}</button>`).join('') + '</p>' +
    `<h2 id="adoption-title">${esc(chosen)}: clusters by version, last ${esc(data.since)} (every ${esc(data.step)})</h2>` +
    '<div class="chart"><canvas id="adoption-chart" height="320"></canvas></div>';
  const last = data.points.length ? data.points[data.points.length - 1].clusters : {};
  html += '<table id="adoption-now"><tr><th>Version</th><th>Clusters now</th></tr>' + Object.keys(last).sort().map((v) =>
    `<tr data-version="${esc(v)}"><td>${esc(v)}</td><td>${last[v]}</td></tr>`).join('') + '</table>';
  // drawn once the page holds the canvas (render() sets the HTML right after this returns)
  setTimeout(() => drawAdoption(data), 0);
  return html;
}

function drawAdoption(data) {
  const canvas = document.getElementById('adoption-chart');
  if (adoptionChart) { adoptionChart.destroy(); adoptionChart = null; }
  // Chart.js is the one script that is not a module: its UMD build sets window.Chart
  if (!canvas || !window.Chart) { return; }
  const series = (i) => cssColour('--series-' + (1 + i % SERIES));
  adoptionChart = new window.Chart(canvas, {
    type: 'line',
    data: {
      labels: data.points.map((p) => adoptionLabel(p.at, data.since)),
      datasets: data.versions.map((v, i) => ({label: v, data: data.points.map((p) => p.clusters[v] || 0), fill: true,
        borderColor: series(i), backgroundColor: series(i) + '88',
        pointRadius: 0, stepped: true}))
    },
    options: {animation: false, responsive: true, maintainAspectRatio: false, interaction: {mode: 'index', intersect: false},
      scales: {y: {stacked: true, beginAtZero: true, title: {display: true, text: 'clusters'}}, x: {ticks: {maxTicksLimit: 12}}}}
  });
}

document.addEventListener('click', (ev) => {
  const since = ev.target.dataset && ev.target.dataset.adoptionSince;
  if (since && ADOPTION_RANGES[since]) { adoptionSince = since; render(); }
});

page(/^#\/adoption(?:\/([^/?]+))?$/, (m) => adoptionView(m[1] && decodeURIComponent(m[1])));
