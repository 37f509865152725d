-- A meeting slot is requested once: the second request for the same start fails and the visitor picks another.
CREATE UNIQUE INDEX inquiries_meeting_slot_idx ON inquiries (meeting_start) WHERE kind = 'meeting';
