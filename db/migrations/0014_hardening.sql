-- Issue 35, hold under attack and load.
--
-- A hard cap on consecutive failures per account and step (src/server/lockout.ts): each try is counted before
-- its password or code is checked, a success sets the count back to 0, and the tenth failure in a row locks
-- that step until the account's owner follows the mailed unlock link (a new password) or a team owner resets
-- the account's factors.
ALTER TABLE admins
  ADD COLUMN password_failures integer NOT NULL DEFAULT 0 CHECK (password_failures >= 0),
  ADD COLUMN password_locked_at timestamptz,
  ADD COLUMN mfa_failures integer NOT NULL DEFAULT 0 CHECK (mfa_failures >= 0),
  ADD COLUMN mfa_locked_at timestamptz;

-- The unlock link mailed at a lock: it opens the password-reset page and lives a day.
ALTER TABLE admin_links DROP CONSTRAINT admin_links_purpose_check;
ALTER TABLE admin_links ADD CONSTRAINT admin_links_purpose_check CHECK (purpose IN ('invite', 'reset', 'unlock'));

-- Refusals of callers without a valid token (401, 403 before any account is known, 429, failed sign-ins for
-- unknown addresses or locked accounts) are counted, not written one row each: one row per network, action and
-- hour with a count, and at most 20 networks per action and hour (the rest share the row of client 'other'),
-- so a flood of them cannot fill the database or bury real events. Kept as long as the activity log.
CREATE TABLE refusal_tallies (
  id bigint GENERATED ALWAYS AS IDENTITY,
  window_start timestamptz NOT NULL,
  client text NOT NULL CHECK (char_length(client) <= 64),
  action text NOT NULL CHECK (action ~ '^[a-z0-9_]+\.[a-z0-9_]+$'),
  count integer NOT NULL CHECK (count > 0),
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  -- What the first refusal of the row was about, e.g. `GET /api/team`, clipped.
  sample text CHECK (char_length(sample) <= 120),
  PRIMARY KEY (window_start, action, client)
);
CREATE INDEX refusal_tallies_last_idx ON refusal_tallies (last_at DESC);

-- How many distinct entry and search rows a day holds already, kept beside them so that the caps of
-- src/server/repositories/insight.ts cost one key lookup per beacon instead of a count of the day's rows.
CREATE TABLE insight_day_rows (
  day date NOT NULL,
  dimension text NOT NULL CHECK (dimension IN ('entries', 'searches')),
  "rows" integer NOT NULL CHECK ("rows" >= 0),
  PRIMARY KEY (day, dimension)
);
INSERT INTO insight_day_rows (day, dimension, "rows")
  SELECT day, 'entries', count(*) FROM insight_entries GROUP BY day
  UNION ALL SELECT day, 'searches', count(*) FROM insight_searches GROUP BY day;
