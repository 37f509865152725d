/**
 * The per-recipient verdict on SMTP answers (RFC 3463) and the signed VERP return path, as pure functions.
 */
import { describe, expect, test } from 'vitest';
import { verifyVerpToken, verpAddress, verpToken, verpTokenOf } from '../../src/server/mail/links.ts';
import { bounceOfSmtpError, classifySmtpError, recipientVerdict } from '../../src/server/mail/policy.ts';
import { ownMessageLocal } from '../../src/server/mail/suppression.ts';

process.env.JWT_SECRET ??= 'korvel-unit-tests-secret-of-at-least-32-bytes';

/** An error as nodemailer's pooled transport reports a refused RCPT of a one-recipient mail. */
const refused = (response: string, command = 'RCPT TO') =>
  Object.assign(new Error(`Can't send mail - all recipients were rejected: ${response}`), {
    code: 'EENVELOPE',
    response,
    responseCode: Number(response.slice(0, 3)),
    command,
  });

describe('recipientVerdict', () => {
  test('permanent failures of the recipient are hard bounces, stated per code', () => {
    for (const status of ['5.1.0', '5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10', '5.2.1', '5.7.1'])
      expect(recipientVerdict(550, status), status).toBe('hard_bounce');
  });

  test('a full mailbox and every transient answer are soft bounces', () => {
    for (const status of ['5.2.2', '4.2.2', '4.4.1', '4.7.0', '4.2.1'])
      expect(recipientVerdict(undefined, status), status).toBe('soft_bounce');
  });

  test('permanent failures that are about us or the message suppress nobody', () => {
    for (const status of ['5.1.7', '5.1.8', '5.2.3', '5.3.4', '5.5.1', '5.6.0', '5.7.0', '5.7.26'])
      expect(recipientVerdict(550, status), status).toBeUndefined();
  });

  test('without an enhanced code, the reply code decides (RFC 5321)', () => {
    expect([550, 551, 553].map((code) => recipientVerdict(code, undefined))).toEqual(
      Array(3).fill('hard_bounce'),
    );
    expect([552, 450, 451, 452].map((code) => recipientVerdict(code, undefined))).toEqual(
      Array(4).fill('soft_bounce'),
    );
    expect([421, 554, 500].map((code) => recipientVerdict(code, undefined))).toEqual(
      Array(3).fill(undefined),
    );
  });
});

describe('bounceOfSmtpError', () => {
  test('reads responseCode and response of a refused RCPT', () => {
    expect(bounceOfSmtpError(refused('550 5.1.1 <gone@list.example>: user unknown'))).toEqual({
      kind: 'hard_bounce',
      status: '5.1.1',
    });
    expect(bounceOfSmtpError(refused('452 4.2.2 mailbox full'))).toEqual({
      kind: 'soft_bounce',
      status: '4.2.2',
    });
    // Gmail's multi-line form: 552-5.2.2 on the first line.
    expect(bounceOfSmtpError(refused('552-5.2.2 The email account is over quota.'))).toEqual({
      kind: 'soft_bounce',
      status: '5.2.2',
    });
  });

  test('reads the reply from `response` alone when `responseCode` is missing', () => {
    const error = Object.assign(new Error('rejected'), {
      response: '550 5.1.1 no such user',
      command: 'RCPT TO',
    });
    expect(bounceOfSmtpError(error)).toEqual({ kind: 'hard_bounce', status: '5.1.1' });
  });

  test('an outage, a refused sender, 421 and a code of the wrong class are no bounce', () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' });
    expect(classifySmtpError(down)).toBe('connection');
    expect(bounceOfSmtpError(down).kind).toBeUndefined();
    const greeting = Object.assign(new Error('554 go away'), { responseCode: 554, command: 'CONN' });
    expect(bounceOfSmtpError(greeting).kind).toBeUndefined();
    expect(bounceOfSmtpError(refused('550 5.7.1 sender rejected', 'MAIL FROM')).kind).toBeUndefined();
    expect(bounceOfSmtpError(refused('421 4.7.0 too many connections')).kind).toBeUndefined();
    // Our relay refusing to pass mail on is about us, whatever its code: the mail waits, nobody is suppressed.
    for (const answer of [
      '554 5.7.1 <reader@list.example>: Relay access denied',
      '550 5.7.1 <reader@list.example>... Relaying denied',
      '550 5.7.54 SMTP; Unable to relay recipient in non-accepted domain',
      '550 relay not permitted',
    ]) {
      expect(classifySmtpError(refused(answer)), answer).toBe('connection');
      expect(bounceOfSmtpError(refused(answer)).kind, answer).toBeUndefined();
    }
    // A recipient's own policy refusal stays a hard bounce.
    expect(bounceOfSmtpError(refused('550 5.7.1 Delivery not authorized, message refused')).kind).toBe(
      'hard_bounce',
    );
    // 550 with a 4.x.x code: the reply decides (550 alone is a hard bounce).
    expect(bounceOfSmtpError(refused('550 4.2.2 confused server'))).toEqual({ kind: 'hard_bounce' });
  });
});

describe('VERP', () => {
  test('the token names the row, carries no address, and is verified in any letter case', () => {
    const token = verpToken(123_456);
    expect(token).toMatch(/^[0-9a-z]+-[0-9a-f]{20}$/);
    expect(verifyVerpToken(token)).toBe(123_456);
    expect(verifyVerpToken(token.toUpperCase())).toBe(123_456);
    const address = verpAddress('bounces@korvel.example', 123_456);
    expect(address).toBe(`bounces+${token}@korvel.example`);
    expect(verpTokenOf(`<${address.toUpperCase()}>`)).toBe(token.toUpperCase());
  });

  test('a forged or altered token names no row', () => {
    const token = verpToken(7);
    expect(verifyVerpToken(`8${token.slice(1)}`)).toBeUndefined();
    expect(verifyVerpToken(`${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBeUndefined();
    for (const bad of ['', '7', '7-', `7-${'g'.repeat(20)}`, `${'z'.repeat(9)}-${'0'.repeat(20)}`])
      expect(verifyVerpToken(bad)).toBeUndefined();
    expect(verpTokenOf('bounces@korvel.example')).toBeUndefined();
  });
});

describe('ownMessageLocal', () => {
  test('accepts a Message-ID at the From domain only', () => {
    const from = 'Korvel <no-reply@korvel.example>';
    expect(ownMessageLocal('<campaign.3.17@korvel.example>', from)).toBe('campaign.3.17');
    expect(ownMessageLocal('campaign.3.17@KORVEL.example', from)).toBe('campaign.3.17');
    expect(ownMessageLocal('<campaign.3.17@evil.example>', from)).toBeUndefined();
    expect(ownMessageLocal('no id at all', from)).toBeUndefined();
  });
});
