-- The client address of the request that made the change (api/src/client_ip.rs: the peer, or
-- the right-most untrusted hop behind TRUSTED_PROXIES); null for the system's own changes.
ALTER TABLE audit_log ADD COLUMN client_ip inet;
