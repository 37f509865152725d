/**
 * The firm's clock: Korvel works from Belgrade, so meeting slots, scheduled issues, the archive's dates and the
 * admin's times are Belgrade time wherever the reader or the server happens to be.
 */
export const FIRM_TIME_ZONE = 'Europe/Belgrade';
