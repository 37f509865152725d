-- Scheduled issues and the public archive (issue 36). A draft may carry the moment it is to start sending; the
-- scheduled worker starts each due draft once (the start is the send's own `UPDATE … WHERE status = 'draft'`,
-- so two overlapping runs cannot both start it). The moment stays on the issue after a scheduled start, so the
-- delay between the planned and the actual start can be read back; a send started by hand clears it.
ALTER TABLE campaigns
  ADD COLUMN scheduled_at timestamptz,
  -- Whether a sent issue is listed in the public archive (/newsletter/, /de/newsletter/). On by default; the
  -- firm switches it off per issue.
  ADD COLUMN in_archive boolean NOT NULL DEFAULT true,
  -- The issue a draft was duplicated from, shown in the editor; null for an issue written afresh.
  ADD COLUMN duplicated_from integer REFERENCES campaigns (id) ON DELETE SET NULL;

-- The worker's question each run: which drafts are due.
CREATE INDEX campaigns_due_idx ON campaigns (scheduled_at) WHERE status = 'draft' AND scheduled_at IS NOT NULL;
-- The archive's question: the listed sent issues of one language, newest first.
CREATE INDEX campaigns_archive_idx ON campaigns (lang, send_started_at DESC) WHERE status = 'sent' AND in_archive;
