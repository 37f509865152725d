-- Settings the owner switches in the admin (issue 37): one row per setting, absent until the owner first sets
-- it (the default then comes from the environment, e.g. CONTENT_EDITORS_PUBLISH). Each change is also in the
-- activity log, with who made it.
CREATE TABLE admin_settings (
  name text PRIMARY KEY CONSTRAINT admin_settings_name_check CHECK (name IN ('content_editors_publish')),
  value boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by integer REFERENCES admins (id) ON DELETE SET NULL
);
