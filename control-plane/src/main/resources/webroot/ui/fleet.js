// Fleet page (#/): cluster counts and the versions each subscription runs across the fleet.
'use strict';
(() => {
  const {api, all, esc} = Olm;

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

  Olm.page(/^#\/?$/, fleetView);
})();
