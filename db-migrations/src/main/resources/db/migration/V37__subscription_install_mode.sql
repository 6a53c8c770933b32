-- Install modes. A subscription's install_mode is AllNamespaces, OwnNamespace, SingleNamespace or MultiNamespace
-- (the last two with target_namespaces); NULL lets the bundle decide: AllNamespaces where its CSV supports it, else
-- OwnNamespace. Subscriptions stored before keep the meaning they had: no targets was OwnNamespace, one target the
-- install namespace too, one other SingleNamespace, several MultiNamespace.
ALTER TABLE subscriptions ADD COLUMN install_mode text
    CHECK (install_mode IN ('AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'));

UPDATE subscriptions SET install_mode = CASE
    WHEN cardinality(target_namespaces) = 0 THEN 'OwnNamespace'
    WHEN cardinality(target_namespaces) = 1 AND target_namespaces[1] = namespace THEN 'OwnNamespace'
    WHEN cardinality(target_namespaces) = 1 THEN 'SingleNamespace'
    ELSE 'MultiNamespace' END;

-- The install modes each indexed bundle supports (olm.csv.metadata, else its embedded CSV); NULL when the catalog
-- does not tell (an image-only bundle, or a revision indexed before this migration): the agent decides then.
ALTER TABLE catalog_bundles ADD COLUMN install_modes text[];
