-- Erasing a subscriber (issue 36, item 4; GDPR Art. 17): DELETE /api/newsletter/{id} deletes the person's data
-- and leaves only the one-way hash of the address on the suppression list, with the reason `erased` and the source
-- `admin` (the firm acted on the person's request), so that no import brings the address back. Like an
-- unsubscribe, the row keeps no address; only the person's own new sign-up, once confirmed, lifts it.
ALTER TABLE mail_suppressions DROP CONSTRAINT mail_suppressions_reason_check;
ALTER TABLE mail_suppressions ADD CONSTRAINT mail_suppressions_reason_check
  CHECK (reason IN ('unsubscribe', 'hard_bounce', 'soft_bounce', 'complaint', 'erased'));
ALTER TABLE mail_suppressions DROP CONSTRAINT mail_suppressions_source_check;
ALTER TABLE mail_suppressions ADD CONSTRAINT mail_suppressions_source_check
  CHECK (source IN ('link', 'admin', 'smtp', 'dsn', 'arf', 'ses', 'postmark', 'mailgun', 'sendgrid'));
-- An erased row never holds the address again.
ALTER TABLE mail_suppressions ADD CONSTRAINT mail_suppressions_erased_without_address
  CHECK (reason <> 'erased' OR (email IS NULL AND detail IS NULL));
