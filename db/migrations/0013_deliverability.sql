-- Deliverability (issue 34): bounces and complaints suppress an address, and every issue shows its rates.

-- A subscriber whose address bounced for good or who marked an issue as spam stays on the list, visibly, with
-- that status; they are back only when they sign up again and confirm.
ALTER TABLE subscribers DROP CONSTRAINT subscribers_status_check;
ALTER TABLE subscribers ADD CONSTRAINT subscribers_status_check
  CHECK (status IN ('pending', 'confirmed', 'bounced', 'complained'));

-- The suppression list (0006) gains why, from where and when. Rows written by an unsubscribe keep only the hash;
-- a bounce or complaint also keeps the address, so the firm can see and search what was suppressed. `id` names a
-- row in /api/suppressions/{id}; created_at is the time of the suppression (or of its last stronger reason).
ALTER TABLE mail_suppressions
  ADD COLUMN id integer GENERATED ALWAYS AS IDENTITY,
  ADD COLUMN reason text NOT NULL DEFAULT 'unsubscribe'
    CHECK (reason IN ('unsubscribe', 'hard_bounce', 'soft_bounce', 'complaint')),
  ADD COLUMN source text NOT NULL DEFAULT 'link'
    CHECK (source IN ('link', 'smtp', 'dsn', 'arf', 'ses', 'postmark', 'mailgun', 'sendgrid')),
  ADD COLUMN email text CHECK (char_length(email) <= 254),
  ADD COLUMN detail text CHECK (char_length(detail) <= 500);
ALTER TABLE mail_suppressions ADD CONSTRAINT mail_suppressions_id_key UNIQUE (id);
CREATE INDEX mail_suppressions_created_at_idx ON mail_suppressions (created_at DESC, id DESC);

-- Every bounce and complaint we heard of, once per (source, event id): a provider that repeats a webhook, or a
-- report that arrives twice, finds its row here and changes nothing. The per-issue and 30-day rates are counted
-- from this table, and so are the soft bounces that add up to a suppression. `forgiven_at` marks soft bounces
-- that no longer count (the owner lifted the suppression, or the person confirmed anew).
CREATE TABLE mail_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('smtp', 'dsn', 'arf', 'ses', 'postmark', 'mailgun', 'sendgrid')),
  event_id text NOT NULL CHECK (char_length(event_id) BETWEEN 1 AND 300),
  kind text NOT NULL CHECK (kind IN ('hard_bounce', 'soft_bounce', 'complaint')),
  outbox_id integer REFERENCES outbox (id) ON DELETE SET NULL,
  campaign_id integer REFERENCES campaigns (id) ON DELETE SET NULL,
  subscriber_id integer,
  email_hash text CHECK (char_length(email_hash) = 64),
  status text CHECK (status ~ '^[245]\.[0-9]{1,3}\.[0-9]{1,3}$'),
  diagnostic text CHECK (char_length(diagnostic) <= 500),
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  forgiven_at timestamptz,
  UNIQUE (source, event_id)
);
CREATE INDEX mail_events_soft_idx ON mail_events (email_hash, occurred_at) WHERE kind = 'soft_bounce';
CREATE INDEX mail_events_campaign_idx ON mail_events (campaign_id, kind) WHERE campaign_id IS NOT NULL;
CREATE INDEX mail_events_occurred_idx ON mail_events (occurred_at);

-- A provider's event names the outgoing Message-ID, whose local part is the idempotency key with every
-- character outside [A-Za-z0-9.-] made a dot (messageIdFor in src/server/mail/worker.ts); a report that names
-- only the address is matched on the recipient. Both look for the latest such mail, so the id is in the index:
-- without it a database that has not gathered statistics (PGlite in dev) scanned the outbox backwards.
CREATE INDEX outbox_message_local_idx
  ON outbox ((regexp_replace(idempotency_key, '[^A-Za-z0-9.-]', '.', 'g')), id DESC);
CREATE INDEX outbox_recipient_lower_idx ON outbox (lower(recipient), id DESC) WHERE recipient IS NOT NULL;
CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE status = 'sent';
