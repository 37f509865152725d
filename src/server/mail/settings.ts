/**
 * Mail settings from the environment. Nothing here is required: without `SMTP_URL` every request still
 * succeeds and its mail waits in the outbox until a transport is configured.
 */
import { site } from '../../site.config.ts';
import { ConfigError } from '../config.ts';

export const DEFAULT_MAIL_FROM = `${site.displayName} <no-reply@${new URL(site.url).hostname.replace(/^www\./, '')}>`;

export interface MailSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (implicit TLS); unset: mail waits. */
  smtpUrl: string | undefined;
  /** The From header of every mail. */
  from: string;
  /** The firm's inbox for lead notifications. */
  notifyTo: string;
  /** Origin of every absolute link in mail, without a trailing slash. */
  siteUrl: string;
  /** Newsletter issues leave at most this many copies a minute (MAIL_RATE_PER_MINUTE, default 600). */
  ratePerMinute: number;
}

/** What most SMTP relays accept from a small sender without throttling it. */
export const DEFAULT_MAIL_RATE_PER_MINUTE = 600;

function ratePerMinute(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAIL_RATE_PER_MINUTE;
  if (!/^[1-9][0-9]{0,5}$/.test(value.trim()))
    throw new ConfigError('MAIL_RATE_PER_MINUTE must be a whole number from 1 to 999999');
  return Number(value.trim());
}

/** `https://www.korvel.example/` → `https://www.korvel.example`; anything but an http(s) origin is refused. */
function origin(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be http(s)`);
  return url.origin;
}

/** The firm's inbox, read without the other settings so that queueing mail never depends on them. */
export const notifyAddress = (env: NodeJS.ProcessEnv = process.env) =>
  env.MAIL_NOTIFY_TO?.trim() || site.email;

/** On Netlify `URL` is the site's main address; `SITE_URL` wins when both are set. */
export function mailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\//i.test(smtpUrl))
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  return {
    smtpUrl,
    from: env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM,
    notifyTo: notifyAddress(env),
    siteUrl: origin(env.SITE_URL?.trim() || env.URL?.trim() || site.url, env.SITE_URL ? 'SITE_URL' : 'URL'),
    ratePerMinute: ratePerMinute(env.MAIL_RATE_PER_MINUTE),
  };
}

/** Whether mail can leave the outbox at all; `/api/health` reports it without revealing the URL. */
export const mailConfigured = (env: NodeJS.ProcessEnv = process.env) => Boolean(env.SMTP_URL?.trim());
