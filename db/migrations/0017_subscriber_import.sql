-- Importing the firm's existing contacts (issue 36, item 1): a CSV becomes an import job whose rows are applied
-- in chunks, with progress, a cancel and a report; src/server/subscriber-import.ts.

-- What an imported subscriber brings: a name, the topics they follow (the six divisions and company news, checked
-- against NEWSLETTER_TOPICS in src/content/constants.ts), and the consent evidence the firm states.
-- `consent_mode` is null for sign-ups through the site's form; `consented` when the firm has the consent on record
-- (the row is confirmed with `consent_source` and the stated `consented_at`); `confirm` when the import asked for
-- it by the double opt-in mail.
ALTER TABLE subscribers
  ADD COLUMN name text CHECK (char_length(name) <= 200),
  ADD COLUMN topics text[] NOT NULL DEFAULT '{}',
  ADD COLUMN consent_mode text CHECK (consent_mode IN ('consented', 'confirm')),
  ADD COLUMN consent_source text CHECK (char_length(consent_source) <= 300),
  ADD COLUMN import_id integer;

-- One upload. The counters are kept beside the rows so the progress poll costs one key lookup. `lease_until`
-- marks the run working on it; a run that died leaves a lapsed lease the scheduled worker takes over.
CREATE TABLE subscriber_imports (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_by integer REFERENCES admins (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  mode text NOT NULL CHECK (mode IN ('consented', 'confirm')),
  source text NOT NULL CHECK (char_length(source) BETWEEN 1 AND 300),
  state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'cancelled')),
  lease_until timestamptz,
  total integer NOT NULL CHECK (total >= 0),
  processed integer NOT NULL DEFAULT 0,
  added integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  rejected integer NOT NULL DEFAULT 0
);
ALTER TABLE subscribers
  ADD CONSTRAINT subscribers_import_id_fkey FOREIGN KEY (import_id) REFERENCES subscriber_imports (id);

-- Each data row of the file, by its line: what it said (as mapped) and, once applied, what became of it. Rows
-- refused or duplicated within the file have their outcome from the start. The report is read from here; the
-- addresses and names are deleted with the rows after the retention period of the privacy policy.
CREATE TABLE subscriber_import_rows (
  import_id integer NOT NULL REFERENCES subscriber_imports (id) ON DELETE CASCADE,
  line integer NOT NULL CHECK (line > 0),
  email text CHECK (char_length(email) <= 320),
  name text CHECK (char_length(name) <= 200),
  lang text CHECK (lang IN ('en', 'de')),
  topics text[] NOT NULL DEFAULT '{}',
  consented_at timestamptz,
  consent_source text CHECK (char_length(consent_source) <= 300),
  outcome text CHECK (outcome IN ('added', 'updated', 'skipped', 'rejected')),
  reason text CHECK (char_length(reason) <= 300),
  subscriber_id integer,
  PRIMARY KEY (import_id, line)
);
CREATE INDEX subscriber_import_rows_waiting_idx ON subscriber_import_rows (import_id, line) WHERE outcome IS NULL;
CREATE INDEX subscriber_import_rows_subscriber_idx ON subscriber_import_rows (subscriber_id)
  WHERE subscriber_id IS NOT NULL;

-- Mail that keeps to MAIL_RATE_PER_MINUTE: newsletter issues' copies, as before, and now also the confirmation
-- mails an import sends (`paced`); everything else (a visitor's acknowledgement, a sign-in link) goes at once.
ALTER TABLE outbox ADD COLUMN paced boolean NOT NULL DEFAULT false;
DROP INDEX outbox_claimed_at_idx;
CREATE INDEX outbox_claimed_at_idx ON outbox (claimed_at) WHERE template = 'campaign' OR paced;
