-- A partner's own mail server that fails is shown to the partner (issue 23): before, a wrong
-- password or a dead host failed the mail job quietly while the console said the mail was
-- sent. The last failure is kept on the settings it concerns, so saving new settings or a
-- mail that goes through clears it (`domain::partners::partner_smtp`).
--   last_error           the server's answer or the connection error, the password masked
--                        (never a secret: the job scrubs it before it is written), cut to 500
--   last_error_at        when the attempt failed
--   last_error_mail      which mail it was (`domain::mail::Mail::kind`: user_password_reset, …)
--   last_error_fallback  whether the platform's own mailer sent it instead (account mails)
ALTER TABLE partner_smtp
    ADD COLUMN last_error          text CHECK (length(last_error) <= 500),
    ADD COLUMN last_error_at       timestamptz,
    ADD COLUMN last_error_mail     text,
    ADD COLUMN last_error_fallback boolean NOT NULL DEFAULT false;
