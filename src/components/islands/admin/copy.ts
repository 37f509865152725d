/**
 * The admin islands' copy, by key of `src/i18n/locales/en/admin.json`. The pages build it with
 * `adminPanelCopy(t)` / `adminLoginCopy(t)` (src/i18n/island-copy.ts); the islands never load i18next.
 */
export const LOGIN_KEYS = ['email', 'password', 'submit', 'error', 'home'] as const;

export const SUBSCRIBER_KEYS = [
  'heading',
  'search',
  'search_hint',
  'status_filter',
  'status_all',
  'status_confirmed',
  'status_pending',
  'clear_search',
  'copy_all',
  'copy_all_hint',
  'export',
  'total_one',
  'total_other',
  'pending_count',
  'matches_one',
  'matches_other',
  'id',
  'email',
  'date',
  'action',
  'missing_date',
  'pending',
  'pending_hint',
  'delete',
  'copy',
  'confirm_title',
  'confirm_text',
  'confirm_accept',
  'confirm_cancel',
  'deleted',
  'delete_failed',
  'copied',
  'copy_failed',
  'copied_all',
  'copy_all_failed',
  'exported',
  'export_failed',
  'loading',
  'empty',
  'empty_filtered',
  'no_match',
  'load_failed',
  'retry',
] as const;

export const INQUIRY_KEYS = [
  'heading',
  'total_one',
  'total_other',
  'contact',
  'meeting',
  'no_subject',
  'received',
  'slot',
  'slot_value',
  'company',
  'position',
  'email',
  'phone',
  'source',
  'reply',
  'open',
  'handled',
  'mark_handled',
  'reopen',
  'marked_handled',
  'reopened',
  'update_failed',
  'meeting_requested',
  'meeting_confirmed',
  'meeting_declined',
  'call_link',
  'decline_note',
  'confirm',
  'decline',
  'cancel_meeting',
  'call_link_label',
  'call_link_hint',
  'note_label',
  'note_hint',
  'send_confirmation',
  'send_decline',
  'close_form',
  'confirmed_toast',
  'declined_toast',
  'decision_failed',
  'mail',
  'mail_none',
  'mail_contact-notify',
  'mail_contact-ack',
  'mail_meeting-notify',
  'mail_meeting-ack',
  'mail_meeting-confirmed',
  'mail_meeting-declined',
  'mail_sent',
  'mail_pending',
  'mail_sending',
  'mail_failed',
  'mail_cancelled',
  'retry_mail',
  'mail_retried',
  'retry_failed',
  'loading',
  'empty',
  'load_failed',
  'retry',
] as const;

export const PAGER_KEYS = ['page_size', 'previous', 'next', 'position', 'range'] as const;

export type LoginCopy = Record<(typeof LOGIN_KEYS)[number], string> & { errorHeading: string };
export type SubscribersCopy = Record<(typeof SUBSCRIBER_KEYS)[number], string>;
export type InquiriesCopy = Record<(typeof INQUIRY_KEYS)[number], string>;
export type PagerCopy = Record<(typeof PAGER_KEYS)[number], string>;

export interface PanelCopy {
  tabs: { label: string; subscribers: string; inquiries: string };
  toasts: { label: string; dismiss: string };
  /** "Successful registration!", shown once after the sign-in page hands over. */
  signedIn: string;
  subscribers: SubscribersCopy;
  inquiries: InquiriesCopy;
  pager: PagerCopy & { subscribers: string; inquiries: string };
  errorHeading: string;
}

export interface LogoutCopy {
  logout: string;
}
