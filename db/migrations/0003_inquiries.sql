-- Contact-form messages and 30-minute meeting requests.
CREATE TABLE inquiries (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('contact', 'meeting')),
  full_name text NOT NULL CHECK (char_length(full_name) BETWEEN 1 AND 120),
  company text CHECK (char_length(company) <= 160),
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  position text CHECK (char_length(position) <= 120),
  phone text CHECK (char_length(phone) <= 40),
  subject text CHECK (char_length(subject) <= 200),
  message text CHECK (char_length(message) <= 5000),
  meeting_start timestamptz,
  privacy_version text NOT NULL,
  source_page text CHECK (char_length(source_page) <= 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  handled_at timestamptz,
  CONSTRAINT meeting_has_slot CHECK ((kind = 'meeting') = (meeting_start IS NOT NULL))
);

CREATE INDEX inquiries_created_at_idx ON inquiries (created_at DESC);
