-- A subscriber's own history (issue 36): what the reader changed on the preference page and what the firm changed
-- for them, so the record an editor opens and the person's data export (GDPR Art. 15/20) show when each choice
-- was made. Sign-up, confirmation, imports and mail outcomes are already kept elsewhere (subscribers,
-- subscriber_import_rows, outbox, mail_events); this table holds only the changes in between. The rows go with
-- the subscriber.
CREATE TABLE subscriber_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  -- `topics`: detail {"from": [...], "to": [...]}; `language`: {"from": "en", "to": "de"};
  -- `paused`: {"until": ISO 8601}; `resumed`: {}.
  kind text NOT NULL CHECK (kind IN ('topics', 'language', 'paused', 'resumed')),
  detail jsonb NOT NULL DEFAULT '{}',
  -- null when the reader made the change through their own signed link.
  admin_id integer REFERENCES admins (id) ON DELETE SET NULL
);
CREATE INDEX subscriber_changes_subscriber_idx ON subscriber_changes (subscriber_id, at);

-- A reader may pause the newsletter for three months from the preference page; issues skip them until then.
ALTER TABLE subscribers ADD COLUMN paused_until timestamptz;
