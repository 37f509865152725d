-- Meetings keep one calendar identity for life, visitors may cancel or move them, and every change is kept.

-- The UID of a meeting's calendar event (the part before "@host"). Every new row gets a random UUID (only
-- meetings use it), so two meetings ever booked in one slot never share it. Meetings from before this
-- migration keep the slot-based UID their invitations already carry, so later updates still reach the same
-- calendar entry; a declined one (its slot may have been booked again under that UID) keeps its new UUID, as
-- nothing more is sent about it.
ALTER TABLE inquiries
  ADD COLUMN meeting_uid text NOT NULL DEFAULT gen_random_uuid()::text
    CHECK (char_length(meeting_uid) BETWEEN 1 AND 100),
  -- How often the visitor moved the meeting: binds their cancel and reschedule links to one version of it.
  ADD COLUMN meeting_moves integer NOT NULL DEFAULT 0,
  -- The IANA time zone of the visitor's browser when they booked, so mail can show their own time beside Belgrade's.
  ADD COLUMN visitor_time_zone text CHECK (char_length(visitor_time_zone) BETWEEN 1 AND 64);

UPDATE inquiries
  SET meeting_uid = 'meeting-' || to_char(meeting_start AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISS"000Z"')
  WHERE kind = 'meeting' AND meeting_status <> 'declined';
CREATE UNIQUE INDEX inquiries_meeting_uid_idx ON inquiries (meeting_uid);

-- A visitor may now cancel their meeting; a cancelled meeting, like a declined one, frees its slot.
ALTER TABLE inquiries DROP CONSTRAINT inquiries_meeting_status_check;
ALTER TABLE inquiries ADD CONSTRAINT inquiries_meeting_status_check
  CHECK (meeting_status IN ('requested', 'confirmed', 'declined', 'cancelled'));
DROP INDEX inquiries_meeting_slot_idx;
CREATE UNIQUE INDEX inquiries_meeting_slot_idx ON inquiries (meeting_start)
  WHERE kind = 'meeting' AND meeting_status IN ('requested', 'confirmed');

-- One row per state change of a meeting, shown to the admin: requested, confirmed, declined, cancelled (by
-- the visitor) and rescheduled (from previous_start to meeting_start). Deleted with its inquiry.
CREATE TABLE meeting_history (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  inquiry_id integer NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
  change text NOT NULL CHECK (change IN ('requested', 'confirmed', 'declined', 'cancelled', 'rescheduled')),
  -- The calendar SEQUENCE the change was sent with.
  sequence integer NOT NULL CHECK (sequence >= 0),
  meeting_start timestamptz NOT NULL,
  previous_start timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT meeting_history_moved CHECK ((change = 'rescheduled') = (previous_start IS NOT NULL))
);
CREATE INDEX meeting_history_inquiry_idx ON meeting_history (inquiry_id, id);

INSERT INTO meeting_history (inquiry_id, change, sequence, meeting_start, created_at)
  SELECT id, 'requested', 0, meeting_start, created_at FROM inquiries WHERE kind = 'meeting';
INSERT INTO meeting_history (inquiry_id, change, sequence, meeting_start, created_at)
  SELECT id, meeting_status, meeting_sequence, meeting_start, coalesce(meeting_decided_at, created_at)
  FROM inquiries WHERE kind = 'meeting' AND meeting_status IN ('confirmed', 'declined');
