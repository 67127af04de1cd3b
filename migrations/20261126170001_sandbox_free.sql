-- Sandbox calls are free unless the partner switches charging them on (My Account → Settings),
-- to rehearse the money flow before going live. The partners trigger of the gateway cache
-- (20261126120001) already tells every api process when it changes.
ALTER TABLE partners ADD COLUMN charge_sandbox boolean NOT NULL DEFAULT false;
