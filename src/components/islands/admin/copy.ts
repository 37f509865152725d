/**
 * The admin islands' copy, by key of `src/i18n/locales/en/admin.json`. The pages build it with
 * `adminPanelCopy(t)` / `adminLoginCopy(t)` (src/i18n/island-copy.ts); the islands never load i18next.
 */
import type { TabName } from './tabs.ts';

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
  'mail_team-invite',
  'mail_password-reset',
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

export const CAMPAIGN_KEYS = [
  'heading',
  'intro',
  'new',
  'total_one',
  'total_other',
  'col_subject',
  'col_status',
  'col_created',
  'col_delivered',
  'status_draft',
  'status_sending',
  'status_sent',
  'status_cancelled',
  'delivered_value',
  'open',
  'back',
  'loading',
  'empty',
  'load_failed',
  'retry',
  'new_heading',
  'edit_heading',
  'subject',
  'subject_hint',
  'preheader',
  'preheader_hint',
  'markdown',
  'markdown_hint',
  'articles',
  'articles_hint',
  'articles_full',
  'errors_heading',
  'save',
  'saving',
  'created',
  'saved',
  'save_failed',
  'delete',
  'delete_title',
  'delete_text',
  'delete_accept',
  'deleted',
  'delete_failed',
  'send_test',
  'test_sent',
  'test_failed',
  'send_one',
  'send_other',
  'send_none',
  'send_title',
  'send_text_one',
  'send_text_other',
  'send_accept_one',
  'send_accept_other',
  'dialog_cancel',
  'sending_started',
  'send_failed',
  'no_recipients',
  'state_changed',
  'preview',
  'preview_views',
  'preview_html',
  'preview_text',
  'preview_widths',
  'preview_phone',
  'preview_desktop',
  'preview_frame',
  'preview_empty',
  'preview_loading',
  'preview_failed',
  'delivery',
  'recipients',
  'count_sent',
  'count_queued',
  'count_failed',
  'count_skipped',
  'progress_label',
  'started',
  'finished',
  'rate_note',
  'cancel_send',
  'cancel_title',
  'cancel_text',
  'cancel_accept',
  'cancelled_toast',
  'cancel_failed',
  'failures',
  'failures_none',
  'purged',
  'attempts_one',
  'attempts_other',
  'kind_blog',
  'kind_news',
  'draft_kept',
  'draft_untitled',
  'draft_restore',
  'draft_discard',
  'draft_discarded',
] as const;

export const PAGER_KEYS = ['page_size', 'previous', 'next', 'position', 'range'] as const;

export const LOGIN_EXTRA_KEYS = ['forgot', 'idle_signed_out', 'limit_signed_out'] as const;

export const SECOND_STEP_KEYS = [
  'heading',
  'intro',
  'code',
  'code_hint',
  'recovery',
  'recovery_hint',
  'submit',
  'passkey',
  'passkey_hint',
  'use_recovery',
  'use_code',
  'or',
  'wrong_code',
  'passkey_failed',
  'expired',
  'restart',
  'working',
] as const;

export const FORGOT_KEYS = ['email', 'submit', 'sending', 'sent', 'error', 'throttled', 'back'] as const;

export const RESET_KEYS = [
  'submit',
  'saving',
  'done',
  'sign_in',
  'missing',
  'expired',
  'ask_again',
  'error',
] as const;

export const INVITE_KEYS = [
  'checking',
  'for',
  'role',
  'name',
  'name_hint',
  'submit',
  'saving',
  'missing',
  'expired',
  'error',
] as const;

export const PASSWORD_KEYS = [
  'new',
  'repeat',
  'policy',
  'too_short',
  'mismatch',
  'rejected',
  'current',
  'current_wrong',
] as const;

export const ACCOUNT_KEYS = [
  'loading',
  'load_failed',
  'retry',
  'back',
  'enrol_heading',
  'enrol_intro',
  'details',
  'email',
  'role',
  'name',
  'save_name',
  'name_saved',
  'name_failed',
  'password_heading',
  'password_intro',
  'change_password',
  'password_changed',
  'password_failed',
  'factors',
  'factors_intro',
  'totp',
  'totp_on',
  'totp_off',
  'totp_add',
  'totp_scan',
  'totp_qr',
  'totp_secret',
  'totp_code',
  'totp_confirm',
  'totp_cancel',
  'totp_added',
  'totp_wrong',
  'totp_remove',
  'totp_remove_title',
  'totp_remove_text',
  'totp_removed',
  'passkeys',
  'passkeys_none',
  'passkey_name',
  'passkey_name_hint',
  'passkey_add',
  'passkey_added',
  'passkey_failed',
  'passkey_unsupported',
  'passkey_created',
  'passkey_used',
  'passkey_never',
  'passkey_remove',
  'passkey_remove_title',
  'passkey_remove_text',
  'passkey_removed',
  'last_factor',
  'remove_failed',
  'recovery',
  'recovery_left_one',
  'recovery_left_other',
  'recovery_intro',
  'recovery_new',
  'recovery_new_title',
  'recovery_new_text',
  'recovery_new_detail',
  'recovery_new_accept',
  'recovery_failed',
  'codes_heading',
  'codes_intro',
  'codes_label',
  'codes_copy',
  'codes_copied',
  'codes_copy_failed',
  'codes_download',
  'codes_file_title',
  'codes_done',
  'continue',
  'sessions',
  'sessions_intro',
  'session_current',
  'session_started',
  'session_seen',
  'session_ends',
  'session_client',
  'session_client_unknown',
  'sessions_failed',
  'sign_out_all',
  'sign_out_all_title',
  'sign_out_all_text',
  'sign_out_all_detail',
  'sign_out_all_failed',
  'cancel',
] as const;

export const ROLE_KEYS = ['owner', 'editor', 'sales', 'owner_hint', 'editor_hint', 'sales_hint'] as const;

export const TEAM_KEYS = [
  'heading',
  'intro',
  'invite',
  'total_one',
  'total_other',
  'you',
  'no_name',
  'status_invited',
  'status_active',
  'status_disabled',
  'role',
  'last_sign_in',
  'never',
  'invited_until',
  'factors',
  'factor_totp',
  'factor_passkeys_one',
  'factor_passkeys_other',
  'factor_none',
  'change_role',
  'role_changed',
  'resend',
  'resent',
  'revoke',
  'revoke_title',
  'revoke_text',
  'revoked',
  'disable',
  'disable_title',
  'disable_text',
  'disabled',
  'enable',
  'enabled',
  'reset_factors',
  'reset_title',
  'reset_text',
  'reset_done',
  'delete',
  'delete_title',
  'delete_text',
  'deleted',
  'cancel',
  'last_owner',
  'action_failed',
  'dialog_title',
  'dialog_intro',
  'email',
  'email_invalid',
  'email_taken',
  'send_invite',
  'sending',
  'invited',
  'invite_failed',
  'loading',
  'empty',
  'load_failed',
  'retry',
] as const;

export const ACTIVITY_KEYS = [
  'heading',
  'intro',
  'action',
  'actor',
  'all_actions',
  'all_actors',
  'col_time',
  'col_actor',
  'col_action',
  'col_target',
  'col_client',
  'nobody',
  'total_one',
  'total_other',
  'loading',
  'empty',
  'load_failed',
  'retry',
] as const;

export const IDLE_KEYS = [
  'title',
  'text_idle',
  'text_limit',
  'stay',
  'sign_out',
  'ok',
  'stay_failed',
] as const;

export type SecondStepCopy = Record<(typeof SECOND_STEP_KEYS)[number], string>;
export type PasswordCopy = Record<(typeof PASSWORD_KEYS)[number], string>;
export type RolesCopy = Record<(typeof ROLE_KEYS)[number], string>;
export type IdleCopy = Record<(typeof IDLE_KEYS)[number], string>;
export type TeamCopy = Record<(typeof TEAM_KEYS)[number], string>;
/** The activity tab's labels, with a readable name for each known action, keyed `auth_sign_in` for `auth.sign_in`. */
export type ActivityCopy = Record<(typeof ACTIVITY_KEYS)[number], string> & {
  actions: Record<string, string>;
};

export type ForgotCopy = Record<(typeof FORGOT_KEYS)[number], string> & { errorHeading: string };
export type ResetCopy = Record<(typeof RESET_KEYS)[number], string> & {
  password: PasswordCopy;
  errorHeading: string;
};
export type InviteCopy = Record<(typeof INVITE_KEYS)[number], string> & {
  password: PasswordCopy;
  roles: RolesCopy;
  errorHeading: string;
};
export type AccountCopy = Record<(typeof ACCOUNT_KEYS)[number], string> & {
  password: PasswordCopy;
  roles: RolesCopy;
  idle: IdleCopy;
  toasts: { label: string; dismiss: string };
  errorHeading: string;
};

export type LoginCopy = Record<(typeof LOGIN_KEYS)[number] | (typeof LOGIN_EXTRA_KEYS)[number], string> & {
  secondStep: SecondStepCopy;
  errorHeading: string;
};
export type SubscribersCopy = Record<(typeof SUBSCRIBER_KEYS)[number], string>;
export type InquiriesCopy = Record<(typeof INQUIRY_KEYS)[number], string>;
export type CampaignsCopy = Record<(typeof CAMPAIGN_KEYS)[number], string>;
export type PagerCopy = Record<(typeof PAGER_KEYS)[number], string>;

export interface PanelCopy {
  tabs: Record<'label' | 'draft_banner' | 'draft_open' | TabName, string>;
  toasts: { label: string; dismiss: string };
  /** "Successful registration!", shown once after the sign-in page hands over. */
  signedIn: string;
  subscribers: SubscribersCopy;
  inquiries: InquiriesCopy;
  campaigns: CampaignsCopy;
  team: TeamCopy;
  activity: ActivityCopy;
  roles: RolesCopy;
  idle: IdleCopy;
  pager: PagerCopy & { subscribers: string; inquiries: string; campaigns: string; activity: string };
  errorHeading: string;
}

export interface LogoutCopy {
  logout: string;
}
