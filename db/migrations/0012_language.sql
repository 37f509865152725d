-- German as a second language (issue 25): the language of the page where someone signed up, wrote or booked,
-- and the language of a newsletter issue. Mail to a subscriber or visitor is written in their language, and an
-- issue goes only to the confirmed subscribers of its own. Every row from before German existed is English.
ALTER TABLE subscribers
  ADD COLUMN lang text NOT NULL DEFAULT 'en' CONSTRAINT subscribers_lang_check CHECK (lang IN ('en', 'de'));
ALTER TABLE inquiries
  ADD COLUMN lang text NOT NULL DEFAULT 'en' CONSTRAINT inquiries_lang_check CHECK (lang IN ('en', 'de'));
ALTER TABLE campaigns
  ADD COLUMN lang text NOT NULL DEFAULT 'en' CONSTRAINT campaigns_lang_check CHECK (lang IN ('en', 'de'));

-- A send snapshots the confirmed subscribers of one language.
CREATE INDEX subscribers_confirmed_lang_idx ON subscribers (lang, id) WHERE status = 'confirmed';
