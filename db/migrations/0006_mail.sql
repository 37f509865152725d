-- Mail: double opt-in for the newsletter, meeting decisions, an outbox written in the same transaction as
-- whatever causes a mail, and suppression hashes that outlive an unsubscribed address.

-- Subscribers are `pending` until the confirmation link is used. Rows from before double opt-in signed up
-- under the old form's consent and stay on the list as confirmed (confirmed_at stays empty for them).
ALTER TABLE subscribers DROP CONSTRAINT subscribers_status_check;
UPDATE subscribers SET status = 'confirmed';
ALTER TABLE subscribers
  ALTER COLUMN status SET DEFAULT 'pending',
  ADD CONSTRAINT subscribers_status_check CHECK (status IN ('pending', 'confirmed')),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN consented_at timestamptz,
  ADD COLUMN confirmation_sent_at timestamptz;
UPDATE subscribers SET consented_at = created_at;
CREATE INDEX subscribers_pending_idx ON subscribers (consented_at) WHERE status = 'pending';

-- An unsubscribed address is deleted; only this one-way hash of it stays, so nothing is mailed to it again
-- until it signs up and confirms anew.
CREATE TABLE mail_suppressions (
  email_hash text PRIMARY KEY CHECK (char_length(email_hash) = 64),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Meeting requests are requested, then confirmed (with a call link) or declined (with a note). A declined
-- request frees its slot; SEQUENCE counts the calendar updates sent for it (RFC 5545 §3.8.7.4).
ALTER TABLE inquiries
  ADD COLUMN meeting_status text CHECK (meeting_status IN ('requested', 'confirmed', 'declined')),
  ADD COLUMN meeting_sequence integer NOT NULL DEFAULT 0,
  ADD COLUMN call_link text CHECK (char_length(call_link) <= 500),
  ADD COLUMN decline_note text CHECK (char_length(decline_note) <= 1000),
  ADD COLUMN meeting_decided_at timestamptz;
UPDATE inquiries SET meeting_status = 'requested' WHERE kind = 'meeting';
ALTER TABLE inquiries ADD CONSTRAINT meeting_has_status CHECK ((kind = 'meeting') = (meeting_status IS NOT NULL));
DROP INDEX inquiries_meeting_slot_idx;
CREATE UNIQUE INDEX inquiries_meeting_slot_idx ON inquiries (meeting_start)
  WHERE kind = 'meeting' AND meeting_status <> 'declined';

-- One row per mail. The idempotency key is unique and becomes the Message-ID, so a mail is queued once
-- whatever retries the request sees. Personal data (recipient, params, last_error) is emptied 30 days on.
CREATE TABLE outbox (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  template text NOT NULL CHECK (char_length(template) BETWEEN 1 AND 60),
  recipient text CHECK (char_length(recipient) <= 254),
  params jsonb NOT NULL DEFAULT '{}',
  inquiry_id integer REFERENCES inquiries (id) ON DELETE SET NULL,
  subscriber_id integer,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text CHECK (char_length(last_error) <= 500),
  failure_kind text CHECK (failure_kind IN ('connection', 'temporary', 'permanent')),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Start of the current 24-hour delivery budget: created_at, or the admin's retry of a failed mail.
  queued_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  purged_at timestamptz
);

CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX outbox_inquiry_idx ON outbox (inquiry_id) WHERE inquiry_id IS NOT NULL;
CREATE INDEX outbox_subscriber_idx ON outbox (subscriber_id) WHERE subscriber_id IS NOT NULL;
CREATE INDEX outbox_created_at_idx ON outbox (created_at) WHERE purged_at IS NULL;
