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
  /**
   * The return path that bounces come back to (MAIL_BOUNCE_ADDRESS, default `bounces@` the From domain); each
   * mail's envelope sender is this with a signed token of its own (`bounces+<token>@…`, VERP).
   */
  bounceAddress: string;
  /** DKIM signing, when DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN are all set. */
  dkim: DkimSettings | undefined;
}

/** nodemailer's `dkim` option. */
export interface DkimSettings {
  domainName: string;
  keySelector: string;
  /** PEM; a key given on one line with `\n` escapes (as some hosting panels store it) is unfolded. */
  privateKey: string;
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

/** The From header of every mail (MAIL_FROM), read alone so that reading a bounce never depends on SMTP_URL. */
export const mailFrom = (env: NodeJS.ProcessEnv = process.env) => env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;

/** `Korvel <no-reply@korvel.example>` → `korvel.example`. */
export const domainOf = (mailbox: string) =>
  (/@([^>\s]+)>?\s*$/.exec(mailbox)?.[1] ?? 'localhost').toLowerCase();

const ADDRESS = /^[^\s@<>+]+@[^\s@<>]+\.[^\s@<>]+$/;

/** MAIL_BOUNCE_ADDRESS, or `bounces@` the From domain. */
export function bounceAddress(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.MAIL_BOUNCE_ADDRESS?.trim();
  if (!value) return `bounces@${domainOf(mailFrom(env))}`;
  if (!ADDRESS.test(value))
    throw new ConfigError(
      'MAIL_BOUNCE_ADDRESS must be a plain address without "+", e.g. bounces@korvel.example',
    );
  return value;
}

/** DKIM settings: all three variables or none. */
export function dkimSettings(env: NodeJS.ProcessEnv = process.env): DkimSettings | undefined {
  const privateKey = env.DKIM_PRIVATE_KEY?.trim().replace(/\\n/g, '\n');
  const keySelector = env.DKIM_SELECTOR?.trim();
  const domainName = env.DKIM_DOMAIN?.trim().toLowerCase();
  if (!privateKey && !keySelector && !domainName) return undefined;
  if (!privateKey || !keySelector || !domainName)
    throw new ConfigError('DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN are set together or not at all');
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(privateKey))
    throw new ConfigError('DKIM_PRIVATE_KEY must be a PEM private key');
  return { privateKey, keySelector, domainName };
}

/** On Netlify `URL` is the site's main address; `SITE_URL` wins when both are set. */
export function mailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\//i.test(smtpUrl))
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  return {
    smtpUrl,
    from: mailFrom(env),
    notifyTo: notifyAddress(env),
    siteUrl: origin(env.SITE_URL?.trim() || env.URL?.trim() || site.url, env.SITE_URL ? 'SITE_URL' : 'URL'),
    ratePerMinute: ratePerMinute(env.MAIL_RATE_PER_MINUTE),
    bounceAddress: bounceAddress(env),
    dkim: dkimSettings(env),
  };
}

/** Whether mail can leave the outbox at all; `/api/health` reports it without revealing the URL. */
export const mailConfigured = (env: NodeJS.ProcessEnv = process.env) => Boolean(env.SMTP_URL?.trim());
