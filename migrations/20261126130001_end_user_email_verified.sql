-- Portal self sign-up verifies the address before the first session (issue 22): a user who
-- signed up is unverified until the mailed link is opened. Users a partner adds, and every user
-- that exists now, count as verified (the partner vouches for them), hence the default.
ALTER TABLE end_users ADD COLUMN email_verified_at timestamptz DEFAULT now();
