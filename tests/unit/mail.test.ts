import { render } from '@react-email/render';
import { createElement } from 'react';
import { describe, expect, test } from 'vitest';
import { belgradeSlot, headerText } from '../../src/server/mail/copy.ts';
import { addressTag, signLinkToken, verifyLinkToken } from '../../src/server/mail/links.ts';
import {
  afterFailure,
  classifySmtpError,
  describeError,
  GIVE_UP_AFTER_SECONDS,
  MAX_RETRY_SECONDS,
  retryDelaySeconds,
} from '../../src/server/mail/policy.ts';
import { DEFAULT_MAIL_FROM, mailSettings } from '../../src/server/mail/settings.ts';
import * as T from '../../src/server/mail/templates.tsx';
import { messageIdFor } from '../../src/server/mail/worker.ts';

describe('retryDelaySeconds', () => {
  test('retries first within 30 s, then doubles up to 15 minutes', () => {
    expect(retryDelaySeconds(1)).toBeLessThanOrEqual(30);
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([15, 30, 60, 120]);
    expect(retryDelaySeconds(7)).toBe(MAX_RETRY_SECONDS);
    expect(retryDelaySeconds(40)).toBe(MAX_RETRY_SECONDS);
  });
});

describe('afterFailure', () => {
  const queuedAt = new Date('2026-11-25T08:00:00Z');
  const at = (seconds: number) => new Date(queuedAt.getTime() + seconds * 1000);

  test('keeps a temporary failure pending with its next attempt', () => {
    expect(afterFailure({ attempts: 2, queuedAt, kind: 'temporary', now: at(60) })).toEqual({
      status: 'pending',
      nextAttemptAt: at(90),
    });
  });

  test('gives up once the next attempt would fall after 24 hours', () => {
    const late = at(GIVE_UP_AFTER_SECONDS - 60);
    expect(afterFailure({ attempts: 30, queuedAt, kind: 'connection', now: late })).toEqual({
      status: 'failed',
    });
  });

  test('fails a permanent refusal on its third attempt', () => {
    expect(afterFailure({ attempts: 2, queuedAt, kind: 'permanent', now: at(30) }).status).toBe('pending');
    expect(afterFailure({ attempts: 3, queuedAt, kind: 'permanent', now: at(60) }).status).toBe('failed');
  });
});

describe('classifySmtpError', () => {
  test('sorts replies and socket errors by who they concern', () => {
    expect(classifySmtpError({ code: 'ESOCKET', command: 'CONN' })).toBe('connection');
    expect(classifySmtpError({ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' })).toBe('connection');
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' })).toBe('permanent');
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' })).toBe('temporary');
    expect(classifySmtpError(new Error('something else'))).toBe('temporary');
  });

  test('describes an error on one line with its reply code', () => {
    const error = Object.assign(new Error('x'), { responseCode: 552, response: 'Mailbox full\r\nbye' });
    expect(describeError(error)).toBe('552 Mailbox full bye');
  });
});

describe('headerText', () => {
  test('turns control characters into spaces and cuts long text with an ellipsis', () => {
    expect(headerText('Hello\r\nBcc: eve@example.com')).toBe('Hello Bcc: eve@example.com');
    expect(headerText('a\u2028b\u0000c')).toBe('a b c');
    expect(headerText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('belgradeSlot', () => {
  test('gives the slot in Belgrade time with the zone in force that day', () => {
    expect(belgradeSlot(new Date('2026-12-01T09:00:00Z'))).toEqual({
      date: 'Tuesday 1 December 2026',
      start: '10:00',
      end: '10:30',
      zone: 'CET',
    });
    expect(belgradeSlot(new Date('2026-06-02T12:30:00Z')).zone).toBe('CEST');
  });
});

describe('mailSettings', () => {
  test('defaults to the site’s own addresses and refuses a URL that is not SMTP', () => {
    const settings = mailSettings({});
    expect(settings).toEqual({
      smtpUrl: undefined,
      from: 'Korvel Engineering <no-reply@korvel.example>',
      notifyTo: 'info@korvel.example',
      siteUrl: 'https://www.korvel.example',
      ratePerMinute: 600,
      bounceAddress: 'bounces@korvel.example',
      dkim: undefined,
    });
    expect(DEFAULT_MAIL_FROM).toBe('Korvel Engineering <no-reply@korvel.example>');
    expect(mailSettings({ URL: 'https://korvel.netlify.app/' }).siteUrl).toBe('https://korvel.netlify.app');
    expect(mailSettings({ URL: 'https://a.example', SITE_URL: 'https://b.example' }).siteUrl).toBe(
      'https://b.example',
    );
    expect(() => mailSettings({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
  });

  test('reads the newsletter send rate and refuses one that is not a positive whole number', () => {
    expect(mailSettings({ MAIL_RATE_PER_MINUTE: ' 120 ' }).ratePerMinute).toBe(120);
    for (const bad of ['0', '-5', '1.5', 'fast', '1000000'])
      expect(() => mailSettings({ MAIL_RATE_PER_MINUTE: bad })).toThrow(/MAIL_RATE_PER_MINUTE/);
  });
});

describe('return path and DKIM settings', () => {
  test('the bounce address follows MAIL_FROM unless MAIL_BOUNCE_ADDRESS names one without "+"', () => {
    expect(mailSettings({ MAIL_FROM: 'Korvel <news@mail.korvel.example>' }).bounceAddress).toBe(
      'bounces@mail.korvel.example',
    );
    expect(mailSettings({ MAIL_BOUNCE_ADDRESS: 'rp@bounce.korvel.example' }).bounceAddress).toBe(
      'rp@bounce.korvel.example',
    );
    for (const bad of ['rp+x@bounce.korvel.example', 'no address', 'a@b'])
      expect(() => mailSettings({ MAIL_BOUNCE_ADDRESS: bad })).toThrow(/MAIL_BOUNCE_ADDRESS/);
  });

  test('DKIM needs all three variables and a PEM key; a one-line key with \\n escapes is unfolded', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----';
    expect(
      mailSettings({ DKIM_PRIVATE_KEY: pem, DKIM_SELECTOR: 'k1', DKIM_DOMAIN: 'Korvel.example' }).dkim,
    ).toEqual({
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----',
      keySelector: 'k1',
      domainName: 'korvel.example',
    });
    expect(() => mailSettings({ DKIM_SELECTOR: 'k1' })).toThrow(/DKIM_/);
    expect(() =>
      mailSettings({ DKIM_PRIVATE_KEY: 'secret', DKIM_SELECTOR: 'k1', DKIM_DOMAIN: 'a.example' }),
    ).toThrow(/PEM/);
  });
});

describe('messageIdFor', () => {
  test('makes the idempotency key the Message-ID at the sender’s domain', () => {
    expect(messageIdFor('contact:12:firm', 'Korvel <no-reply@korvel.example>')).toBe(
      '<contact.12.firm@korvel.example>',
    );
  });
});

describe('link tokens', () => {
  process.env.JWT_SECRET ??= 'unit-test-secret-of-at-least-thirty-two-bytes';
  const claims = { subscriberId: 7, tag: addressTag('Ana@Plant.example') };

  test('verify for their own purpose only', async () => {
    const token = await signLinkToken('confirm', claims);
    expect(await verifyLinkToken('confirm', token)).toEqual({ ok: true, claims });
    expect(await verifyLinkToken('unsubscribe', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  test('confirmation links expire after 7 days; unsubscribe links do not', async () => {
    const issued = new Date('2026-01-01T00:00:00Z');
    const confirm = await signLinkToken('confirm', claims, issued);
    const unsubscribe = await signLinkToken('unsubscribe', claims, issued);
    const later = new Date('2026-01-08T00:00:01Z');
    expect(await verifyLinkToken('confirm', confirm, later)).toEqual({ ok: false, reason: 'expired' });
    expect((await verifyLinkToken('unsubscribe', unsubscribe, later)).ok).toBe(true);
  });

  test('refuse a changed signature, payload or algorithm', async () => {
    const token = await signLinkToken('unsubscribe', claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ at: claims.tag, sub: '8', aud: 'korvel-unsubscribe', iss: 'korvel', iat: 1 }),
    ).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'korvel-link+jwt' })).toString('base64url');
    for (const bad of [
      `${header}.${payload}.${signature!.slice(0, -2)}xx`,
      `${header}.${forged}.${signature}`,
      `${none}.${payload}.`,
      'not-a-token',
    ])
      expect((await verifyLinkToken('unsubscribe', bad)).ok).toBe(false);
  });

  test('tags are the same whatever the letter case', () => {
    expect(addressTag('ANA@plant.example')).toBe(addressTag('ana@PLANT.example'));
  });
});

describe('mail templates', () => {
  const siteUrl = 'https://www.korvel.example';

  test('render HTML and text with no remote image, script or tracker', async () => {
    const elements = [
      createElement(T.ContactAck, { siteUrl, lang: 'en', id: 4 }),
      createElement(T.MeetingAck, {
        siteUrl,
        lang: 'en',
        start: new Date('2026-12-01T09:00:00Z'),
        visitorTimeZone: 'America/Chicago',
        links: {
          cancelUrl: `${siteUrl}/meeting/cancel?token=t`,
          rescheduleUrl: `${siteUrl}/meeting/reschedule?token=t`,
        },
      }),
      createElement(T.NewsletterWelcome, {
        siteUrl,
        lang: 'en',
        unsubscribeUrl: `${siteUrl}/newsletter/unsubscribe?token=t`,
        preferencesUrl: `${siteUrl}/newsletter/preferences?token=t`,
      }),
    ];
    for (const element of elements) {
      const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
      expect(html).not.toMatch(/<img|<script|<link[^>]+stylesheet|url\(/i);
      expect(html).toContain('lang="en-GB"');
      expect(text.length).toBeGreaterThan(100);
      expect(text).not.toContain('<');
    }
  });

  test('escape what a visitor typed in the firm’s notification', async () => {
    const html = await render(
      createElement(T.ContactNotify, {
        siteUrl,
        id: 1,
        fullName: '<script>alert(1)</script>',
        company: null,
        email: 'a@b.example',
        position: null,
        phone: null,
        subject: '<b>bold</b>',
        message: '<img src=x onerror=alert(1)>',
        sourcePage: '/contact',
        receivedAt: new Date('2026-11-25T09:00:00Z'),
        privacyVersion: 'privacy-2026-11-25',
        senderLang: 'de',
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });
});
