-- Enquiries from the landing page's contact form. The mail job carries only the row's id and
-- builds the text when it sends (the queue, kept until pruned and in every backup, holds no
-- visitor's name, address or phone), and the provider keeps a record of every enquiry.
CREATE TABLE contact_requests (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL,
    email      text NOT NULL,
    mobile     text NOT NULL,
    message    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
