-- Sliding windows for login, sign-up and contact limits, replacing the fixed windows of 0004: a fixed window
-- let a burst of twice the limit through at its edge (the limit just before it closed, again just after).
-- One row per limited key (a hash, never a raw IP or e-mail) holds the times of the events its window still
-- counts, oldest first; an event is refused when the window already holds the limit. The old counters are
-- dropped rather than converted: at worst, one window's count starts again at the deploy.
DROP TABLE rate_limits;
CREATE TABLE rate_limits (
  scope text NOT NULL,
  key text NOT NULL,
  hits timestamptz[] NOT NULL,
  -- Whether the key's latest event was refused (the window was full); the counting statement returns it.
  refused boolean NOT NULL DEFAULT false,
  last_hit_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);

CREATE INDEX rate_limits_last_hit_at_idx ON rate_limits (last_hit_at);
