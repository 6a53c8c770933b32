-- The phase each operator of a cluster's inventory was reported in, so that the fleet inventory counts as installed
-- only the operators whose install succeeded and shows failed installs apart. Rows stored before this column take the
-- phase from the stored document.
ALTER TABLE cluster_inventory_operators ADD COLUMN phase text;

UPDATE cluster_inventory_operators o SET phase = e ->> 'phase'
FROM cluster_inventory i, jsonb_array_elements(i.operators) e
WHERE i.cluster = o.cluster AND e ->> 'subscription' = o.subscription;
