-- Administrators of the newsletter list. Tokens issued before tokens_valid_after are refused,
-- so logout and a password change revoke every earlier token.
CREATE TABLE admins (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  password_hash text NOT NULL,
  tokens_valid_after timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX admins_email_lower_key ON admins (lower(email));
