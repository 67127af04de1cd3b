-- The end-user portal (issue 13): end users request their own CSV exports, listed by who asked
-- like the partners' and the super admins'.
ALTER TABLE exports DROP CONSTRAINT exports_requested_by_check;
ALTER TABLE exports ADD CONSTRAINT exports_requested_by_check CHECK (requested_by IN ('superadmin', 'partner', 'user'));
