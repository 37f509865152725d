-- A team instead of one shared password: personal accounts with a role and a status, a required second factor
-- (TOTP or passkeys, plus recovery codes), invitation and password-reset links, server-side sessions with idle
-- and absolute timeouts, and an append-only activity log. Existing admins become active owners; they enrol a
-- factor at their next sign-in.

ALTER TABLE admins
  ADD COLUMN name text NOT NULL DEFAULT '' CHECK (char_length(name) <= 120),
  ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'editor', 'sales')),
  ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('invited', 'active', 'disabled')),
  ADD COLUMN last_sign_in_at timestamptz,
  -- The TOTP secret, AES-256-GCM encrypted (src/server/factors.ts); usable once totp_confirmed_at is set.
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_confirmed_at timestamptz,
  -- A new secret waiting for its first code; the confirmed one (if any) stays in force until then.
  ADD COLUMN totp_pending_secret text,
  -- The RFC 6238 time step of the last accepted code: a code of that step or an earlier one is a replay.
  ADD COLUMN totp_last_step bigint,
  ALTER COLUMN password_hash DROP NOT NULL,
  -- Only an invited account waits for its password.
  ADD CONSTRAINT admins_password_check CHECK (password_hash IS NOT NULL OR status = 'invited');

-- WebAuthn credentials. public_key is the COSE key as base64url; counter guards against cloned authenticators.
CREATE TABLE admin_passkeys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE CHECK (char_length(credential_id) BETWEEN 1 AND 1400),
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL DEFAULT '' CHECK (char_length(name) <= 80),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX admin_passkeys_admin_idx ON admin_passkeys (admin_id);

-- Ten single-use recovery codes per account, as SHA-256 hashes (the codes carry 50 random bits each).
CREATE TABLE admin_recovery_codes (
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  code_hash text NOT NULL CHECK (char_length(code_hash) = 64),
  used_at timestamptz,
  PRIMARY KEY (admin_id, code_hash)
);

-- Invitation (72 h) and password-reset (30 min) links: only the SHA-256 of the token is stored; a link works
-- once, and a newer link of the same purpose revokes the older one.
CREATE TABLE admin_links (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('invite', 'reset')),
  token_hash text NOT NULL UNIQUE CHECK (char_length(token_hash) = 64),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX admin_links_admin_idx ON admin_links (admin_id, purpose);

-- The second step of a sign-in: a ticket (hashed) that lives 5 minutes and allows 5 tries. challenge holds the
-- WebAuthn challenge once passkey options were asked for.
CREATE TABLE admin_mfa_tickets (
  ticket_hash text PRIMARY KEY CHECK (char_length(ticket_hash) = 64),
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  challenge text,
  used_at timestamptz
);
CREATE INDEX admin_mfa_tickets_expires_idx ON admin_mfa_tickets (expires_at);

-- One row per sign-in; the bearer token names it (sid). level 'enrol' may only enrol a factor. A session ends
-- after 30 minutes without a call, 8 hours after it began, or when revoked. client is a truncated address.
CREATE TABLE admin_sessions (
  id uuid PRIMARY KEY,
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  level text NOT NULL CHECK (level IN ('enrol', 'full')),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  client text NOT NULL DEFAULT '' CHECK (char_length(client) <= 64),
  -- The challenge of a passkey registration under way in this session.
  webauthn_challenge text
);
CREATE INDEX admin_sessions_admin_idx ON admin_sessions (admin_id);

-- Security and data events. actor_email is a copy, so a row still names its actor after the account is gone;
-- text columns hold no control characters (src/server/repositories/activity.ts escapes them).
CREATE TABLE activity_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id integer,
  actor_email text CHECK (char_length(actor_email) <= 254),
  action text NOT NULL CHECK (action ~ '^[a-z0-9_]+\.[a-z0-9_]+$'),
  target text CHECK (char_length(target) <= 300),
  client text NOT NULL DEFAULT '' CHECK (char_length(client) <= 64)
);
CREATE INDEX activity_log_at_idx ON activity_log (at DESC);
CREATE INDEX activity_log_action_idx ON activity_log (action, at DESC);

-- Append-only: rows are never changed, and deleted only by the retention job once 400 days old.
CREATE FUNCTION activity_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR OLD.at >= now() - interval '400 days' THEN
    RAISE EXCEPTION 'activity_log is append-only';
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER activity_log_append_only BEFORE UPDATE OR DELETE ON activity_log
  FOR EACH ROW EXECUTE FUNCTION activity_log_append_only();
