-- Asynchronous CSV exports (issue 10): what the export_csv job needs beside the table of the
-- platform migration.

-- Progress while the job runs ('rows written so far'), and how many parts a run uploaded: a
-- retried run that ends with fewer parts removes the ones an earlier attempt left behind, and
-- the retention job knows which keys to delete.
ALTER TABLE exports ADD COLUMN rows_written bigint NOT NULL DEFAULT 0 CHECK (rows_written >= 0);
ALTER TABLE exports ADD COLUMN part_count integer NOT NULL DEFAULT 0 CHECK (part_count >= 0);
-- Who asked: the partner (partner_id) or which super admin. Lists show the caller's own, and a
-- super admin's export of one partner is not that partner's.
ALTER TABLE exports ADD COLUMN requester_id bigint;
UPDATE exports SET requester_id = partner_id WHERE requested_by = 'partner';

-- GET /exports lists the caller's own, newest first.
CREATE INDEX exports_requester_idx ON exports (requested_by, requester_id, created_at DESC, id DESC);
-- The retention job finds finished exports by age.
CREATE INDEX exports_finished_idx ON exports (completed_at) WHERE completed_at IS NOT NULL;
