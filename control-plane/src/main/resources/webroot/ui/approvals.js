// Approvals page (#/approvals): clusters waiting for a manual approval.
'use strict';
(() => {
  Olm.page(/^#\/approvals$/, async () => '<h1>Approvals</h1>');
})();
