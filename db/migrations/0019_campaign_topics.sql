-- Topics and the preference page (issue 36, item 2). An issue goes to the confirmed subscribers of its language
-- who follow at least one of its topics; an issue with no topics goes to all of them. A subscriber's empty
-- `topics` (a row from before topics existed, or an import without the column) means "every topic", so nobody
-- loses an issue by an omission; a sign-up through the site's form stores the topics chosen (all by default).
-- Readers who paused the newsletter (`subscribers.paused_until`, migration 0018) are left out until then.
ALTER TABLE campaigns
  ADD COLUMN topics text[] NOT NULL DEFAULT '{}' CHECK (cardinality(topics) <= 7);
