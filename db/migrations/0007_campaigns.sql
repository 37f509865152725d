-- Newsletter issues ("campaigns") written and sent from /admin. A campaign is a draft until it is sent; sending
-- snapshots the confirmed subscribers of that moment into the outbox, one row per recipient, and the campaign
-- is `sent` once none of its rows is waiting any more.
CREATE TABLE campaigns (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 150),
  preheader text NOT NULL DEFAULT '' CHECK (char_length(preheader) <= 200),
  markdown text NOT NULL CHECK (char_length(markdown) BETWEEN 1 AND 50000),
  -- Article cards under the body, as `blog/<slug>` or `news/<slug>`, in the order the editor chose.
  articles text[] NOT NULL DEFAULT '{}' CHECK (cardinality(articles) <= 6),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sending', 'sent', 'cancelled')),
  -- How many confirmed subscribers the send snapshotted; null for a draft.
  recipients integer CHECK (recipients >= 0),
  created_by integer REFERENCES admins (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  send_started_at timestamptz,
  finished_at timestamptz,
  CHECK ((status = 'draft') = (send_started_at IS NULL))
);
CREATE INDEX campaigns_created_at_idx ON campaigns (created_at DESC, id DESC);
CREATE INDEX campaigns_sending_idx ON campaigns (id) WHERE status = 'sending';

-- Each recipient's copy (and each test copy) is an outbox row of its campaign. A deleted draft takes only test
-- copies with it: a campaign that was sent cannot be deleted.
ALTER TABLE outbox
  ADD COLUMN campaign_id integer REFERENCES campaigns (id) ON DELETE SET NULL,
  -- When the row was last claimed by a worker: the send rate (MAIL_RATE_PER_MINUTE) counts these.
  ADD COLUMN claimed_at timestamptz;
CREATE INDEX outbox_campaign_idx ON outbox (campaign_id, status) WHERE campaign_id IS NOT NULL;
CREATE INDEX outbox_claimed_at_idx ON outbox (claimed_at) WHERE template = 'campaign';
