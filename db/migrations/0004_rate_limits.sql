-- Fixed-window counters for login, sign-up and contact. key is a hash, never a raw IP or e-mail.
CREATE TABLE rate_limits (
  scope text NOT NULL,
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, key, window_start)
);

CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);
