/**
 * Every number that decides when an address is suppressed and when the admin warns, in one place (README,
 * "Bounces, complaints and the suppression list", lists them). They follow what the relays and the large
 * mailbox providers publish: Amazon SES reviews a sender from about 5 % bounces or 0.1 % complaints; Gmail's
 * and Yahoo's bulk-sender rules want spam complaints under 0.3 %.
 */

/** Soft bounces (mailbox full, a transient refusal) of this many different mails suppress the address… */
export const SOFT_BOUNCE_LIMIT = 3;
/** …when they fall within this many days, with no mail delivered to the address between them. */
export const SOFT_BOUNCE_WINDOW_DAYS = 30;

/** The admin's deliverability figures cover this many days. */
export const RATE_WINDOW_DAYS = 30;
/** The admin warns when hard bounces exceed this share of the mail sent in the window (2 %). */
export const BOUNCE_RATE_WARNING = 0.02;
/** The admin warns when complaints exceed this share of the mail delivered in the window (0.1 %). */
export const COMPLAINT_RATE_WARNING = 0.001;
/** Above this complaint rate (0.3 %), sending an issue needs the owner's explicit confirmation, logged. */
export const COMPLAINT_RATE_CONFIRM = 0.003;
