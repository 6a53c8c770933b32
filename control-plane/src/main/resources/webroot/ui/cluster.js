// Cluster page (#/clusters/NAME): what one cluster is and runs.
'use strict';
(() => {
  const {api, esc, enc} = Olm;

  async function clusterView(m) {
    const name = decodeURIComponent(m[1]);
    const c = await api('/clusters/' + enc(name));
    return `<h1>Cluster ${esc(c.name)}</h1><pre id="cluster-json">${esc(JSON.stringify(c, null, 2))}</pre>`;
  }

  Olm.page(/^#\/clusters\/([^/?]+)$/, clusterView);
})();
