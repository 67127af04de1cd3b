-- My Account's card payment provider keeps its key id sealed like its secret (AES-256-GCM with
-- ENCRYPTION_KEY, nonce || ciphertext) and shows both only masked. Nothing wrote the plain
-- `key_id` column before this migration (no endpoint saved payment settings), so it is dropped
-- rather than carried over; the sealing key lives outside the database, so SQL could not seal
-- it anyway.
ALTER TABLE partner_payment_settings
    DROP COLUMN key_id,
    ADD COLUMN key_id_enc bytea;
