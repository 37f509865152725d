-- Newsletter subscribers. created_at is served as created_temp; rows imported from the old site have none.
CREATE TABLE subscribers (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  created_at timestamptz DEFAULT now(),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'unsubscribed')),
  consent_version text,
  source_page text CHECK (char_length(source_page) <= 200)
);

-- One row per address whatever its letter case; sign-up inserts with ON CONFLICT against this index.
CREATE UNIQUE INDEX subscribers_email_lower_key ON subscribers (lower(email));
