/**
 * Copy handed to the React islands as props (islands do not load i18next themselves). Each builder takes the
 * page language's `t`, so an island carries only its page's language; links come in as the page builds them.
 */
import type { TFunction } from 'i18next';
import {
  ACCOUNT_KEYS,
  ACTIVITY_KEYS,
  CAMPAIGN_KEYS,
  CONTENT_KEYS,
  FORGOT_KEYS,
  IDLE_KEYS,
  IMPORT_KEYS,
  RECORD_KEYS,
  INQUIRY_KEYS,
  INVITE_KEYS,
  LOGIN_EXTRA_KEYS,
  LOGIN_KEYS,
  OVERVIEW_KEYS,
  PAGER_KEYS,
  PASSWORD_KEYS,
  RESET_KEYS,
  ROLE_KEYS,
  SECOND_STEP_KEYS,
  SUBSCRIBER_KEYS,
  SUPPRESSION_KEYS,
  TEAM_KEYS,
  type AccountCopy,
  type ActivityCopy,
  type ForgotCopy,
  type InviteCopy,
  type LoginCopy,
  type LogoutCopy,
  type PanelCopy,
  type ResetCopy,
} from '../components/islands/admin/copy.ts';
import { TAB_ROLES } from '../components/islands/admin/tabs.ts';
import type { ContactFormCopy } from '../components/islands/ContactForm.tsx';
import type { MeetingBookingCopy } from '../components/islands/MeetingBooking.tsx';
import type { ImageSliderCopy } from '../components/slides.ts';
import type { FormMessages, FormWords } from '../lib/schemas.ts';
import { topicCopy } from './topics.ts';
import { site } from '../site.config.ts';

/** The slider's words, drawn by the server (src/components/ImageSlider.astro, no island since issue 38). */
export function sliderCopy(t: TFunction): ImageSliderCopy {
  return {
    label: t('blog:slider.label'),
    previous: t('blog:slider.previous'),
    next: t('blog:slider.next'),
    position: t('blog:slider.position'),
    show: t('blog:slider.show'),
    play: t('blog:slider.play'),
    pause: t('blog:slider.pause'),
  };
}

const privacyLabel = (t: TFunction, key: string, href: string) => ({
  before: t(`${key}.before`),
  link: t(`${key}.link`),
  href,
  after: t(`${key}.after`),
});

/** The words of the public forms' message ids (src/lib/schemas.ts) in the page's language. */
export function formWords(t: TFunction, locale: string): FormWords {
  return { locale, messages: t('forms:errors', { returnObjects: true }) as FormMessages };
}

/** `privacyHref`: the privacy policy in the page's language; `locale`: its BCP 47 tag, for numbers. */
export function contactFormCopy(t: TFunction, privacyHref: string, locale: string): ContactFormCopy {
  return {
    labels: t('forms:contact.labels', { returnObjects: true }) as ContactFormCopy['labels'],
    required: t('forms:required'),
    privacy: privacyLabel(t, 'forms:privacy', privacyHref),
    send: t('forms:contact.send'),
    sending: t('forms:contact.sending'),
    summary: t('forms:summary'),
    network: t('forms:network'),
    server: t('forms:server'),
    words: formWords(t, locale),
    errorHeading: t('common:error_boundary.heading'),
  };
}

/** `locale`: the BCP 47 tag of the page's language, for the days and times. */
export function meetingBookingCopy(t: TFunction, privacyHref: string, locale: string): MeetingBookingCopy {
  return {
    locale,
    labels: t('forms:meeting.labels', { returnObjects: true }) as MeetingBookingCopy['labels'],
    required: t('forms:required'),
    privacy: privacyLabel(t, 'forms:privacy', privacyHref),
    day: t('forms:meeting.day'),
    zoneNote: t('forms:meeting.zone_note'),
    yourTime: t('forms:meeting.your_time'),
    loading: t('forms:meeting.loading'),
    unavailable: t('forms:meeting.unavailable'),
    full: t('forms:meeting.full'),
    needsScript: t('forms:meeting.needs_script', { email: site.email, phone: site.phone }),
    retry: t('forms:meeting.retry'),
    send: t('forms:meeting.send'),
    sending: t('forms:meeting.sending'),
    summary: t('forms:summary'),
    network: t('forms:network'),
    server: t('forms:server'),
    words: formWords(t, locale),
    errorHeading: t('common:error_boundary.heading'),
  };
}

/** Every key of `admin:<section>`; a missing one fails the build instead of showing a raw key. */
function section<K extends string>(t: TFunction, name: string, keys: readonly K[]): Record<K, string> {
  const copy = {} as Record<K, string>;
  for (const key of keys) {
    const id = `admin:${name}.${key}`;
    const text = t(id);
    if (text === `${name}.${key}` || text === id) throw new Error(`Missing admin copy ${id}`);
    copy[key] = text;
  }
  return copy;
}

export function adminLoginCopy(t: TFunction): LoginCopy {
  return {
    ...section(t, 'login_form', [...LOGIN_KEYS, ...LOGIN_EXTRA_KEYS]),
    secondStep: section(t, 'second_step', SECOND_STEP_KEYS),
    errorHeading: t('common:error_boundary.heading'),
  };
}

/** The names of the activity log's actions, keyed by the action with underscores for dots (`auth_sign_in`). */
function activityCopy(t: TFunction): ActivityCopy {
  const actions = t('admin:activity_actions', { returnObjects: true }) as Record<string, string>;
  return { ...section(t, 'activity', ACTIVITY_KEYS), actions };
}

export function adminPanelCopy(t: TFunction): PanelCopy {
  const tabNames = TAB_ROLES.map((tab) => tab.name);
  return {
    tabs: section(t, 'tabs', ['label', 'draft_banner', 'draft_open', ...tabNames] as const),
    toasts: section(t, 'toasts', ['label', 'dismiss'] as const),
    signedIn: t('admin:login_form.success'),
    subscribers: section(t, 'subscribers', SUBSCRIBER_KEYS),
    subscriberImport: section(t, 'subscriber_import', IMPORT_KEYS),
    subscriberRecord: { ...section(t, 'subscriber_record', RECORD_KEYS), ...topicCopy(t) },
    inquiries: section(t, 'inquiries', INQUIRY_KEYS),
    campaigns: { ...section(t, 'campaigns', CAMPAIGN_KEYS), ...topicCopy(t) },
    overview: section(t, 'overview', OVERVIEW_KEYS),
    team: section(t, 'team', TEAM_KEYS),
    activity: activityCopy(t),
    suppressions: section(t, 'suppressions', SUPPRESSION_KEYS),
    content: section(t, 'content', CONTENT_KEYS),
    roles: section(t, 'roles', ROLE_KEYS),
    idle: section(t, 'idle', IDLE_KEYS),
    pager: section(t, 'pager', [
      ...PAGER_KEYS,
      'subscribers',
      'inquiries',
      'campaigns',
      'activity',
      'suppressions',
    ] as const),
    errorHeading: t('common:error_boundary.heading'),
  };
}

export function adminForgotCopy(t: TFunction): ForgotCopy {
  return { ...section(t, 'forgot_form', FORGOT_KEYS), errorHeading: t('common:error_boundary.heading') };
}

export function adminResetCopy(t: TFunction): ResetCopy {
  return {
    ...section(t, 'reset_form', RESET_KEYS),
    password: section(t, 'password', PASSWORD_KEYS),
  };
}

export function adminInviteCopy(t: TFunction): InviteCopy {
  return {
    ...section(t, 'invite_form', INVITE_KEYS),
    password: section(t, 'password', PASSWORD_KEYS),
    roles: section(t, 'roles', ROLE_KEYS),
  };
}

export function adminAccountCopy(t: TFunction): AccountCopy {
  return {
    ...section(t, 'account_page', ACCOUNT_KEYS),
    password: section(t, 'password', PASSWORD_KEYS),
    roles: section(t, 'roles', ROLE_KEYS),
    idle: section(t, 'idle', IDLE_KEYS),
    toasts: section(t, 'toasts', ['label', 'dismiss'] as const),
    errorHeading: t('common:error_boundary.heading'),
  };
}

export function adminLogoutCopy(t: TFunction): LogoutCopy {
  return section(t, 'session', ['logout'] as const);
}
