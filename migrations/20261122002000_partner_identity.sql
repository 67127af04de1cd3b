-- Partner identity and onboarding.

-- When the provision_subdomain job last activated the partner's sub-domain: the job's recorded
-- result (the audit log keeps the history). NULL while a claim is pending.
ALTER TABLE partners ADD COLUMN subdomain_provisioned_at timestamptz;

-- Built-in captchas are looked up by id and swept by expiry when new ones are issued.
CREATE INDEX captchas_expires_idx ON captchas (expires_at);
