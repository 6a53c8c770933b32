-- OpenShift upgrade readiness: each indexed bundle's olm.maxOpenShiftVersion (major.minor; NULL when the bundle has
-- none). Revisions indexed before this migration read as having none until their catalog is uploaded again.
ALTER TABLE catalog_bundles ADD COLUMN max_openshift_version text;
