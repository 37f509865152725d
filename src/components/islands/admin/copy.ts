/**
 * The admin islands' copy, by key of `src/i18n/locales/en/admin.json`. The pages build it with
 * `adminPanelCopy(t)` / `adminLoginCopy(t)` (src/i18n/island-copy.ts); the islands never load i18next.
 */
export const LOGIN_KEYS = ['email', 'password', 'submit', 'error', 'home'] as const;

export const SUBSCRIBER_KEYS = [
  'heading',
  'search',
  'search_hint',
  'clear_search',
  'copy_all',
  'export',
  'total_one',
  'total_other',
  'matches_one',
  'matches_other',
  'id',
  'email',
  'date',
  'action',
  'missing_date',
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
