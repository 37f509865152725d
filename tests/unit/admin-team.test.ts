/** The pure helpers behind the team, sign-in and session screens of the admin (issue 23). */
import { describe, expect, test } from 'vitest';
import { groupSecret } from '../../src/components/islands/admin/account/TotpSetup.tsx';
import { recoveryFile } from '../../src/components/islands/admin/account/RecoveryCodes.tsx';
import { linkToken } from '../../src/components/islands/admin/auth-api.ts';
import { parseDraft } from '../../src/components/islands/admin/campaigns/draft-store.ts';
import { passwordMessage, passwordProblem } from '../../src/components/islands/admin/password-check.ts';
import { nextSeen, sessionDeadlines, WARNING_MS } from '../../src/components/islands/admin/session-clock.ts';
import { TAB_ROLES, tabsFor } from '../../src/components/islands/admin/tabs.ts';
import { actionLabel } from '../../src/components/islands/admin/team/ActivityTab.tsx';
import admin from '../../src/i18n/locales/en/admin.json' with { type: 'json' };
import { ACTIVITY_ACTIONS } from '../../src/server/repositories/activity.ts';

describe('tabs by role', () => {
  test('the owner sees every tab, in the agreed order', () => {
    expect(tabsFor('owner')).toEqual([
      'subscribers',
      'inquiries',
      'campaigns',
      'overview',
      'team',
      'activity',
      'suppressions',
      'content',
    ]);
  });
  test('an editor sees subscribers, newsletter issues, the overview, the suppression list and the content, sales the inquiries only', () => {
    expect(tabsFor('editor')).toEqual(['subscribers', 'campaigns', 'overview', 'suppressions', 'content']);
    expect(tabsFor('sales')).toEqual(['inquiries']);
  });
  test('the team and activity tabs are the owner’s alone', () => {
    for (const tab of TAB_ROLES.filter((t) => t.name === 'team' || t.name === 'activity'))
      expect(tab.roles).toEqual(['owner']);
  });
});

describe('session clock', () => {
  const far = '2100-01-01T00:00:00Z';
  test('warns a minute before 30 idle minutes and ends at 30', () => {
    const d = sessionDeadlines(1_000_000, { idleTimeoutSeconds: 1800, expiresAt: far });
    expect(d).toEqual({ warnAt: 1_000_000 + 1_800_000 - WARNING_MS, endAt: 2_800_000, reason: 'idle' });
  });
  test('the eight-hour limit wins when it comes first', () => {
    const lastSeen = Date.parse('2026-11-26T10:00:00Z');
    const d = sessionDeadlines(lastSeen, { idleTimeoutSeconds: 1800, expiresAt: '2026-11-26T10:10:00Z' });
    expect(d.reason).toBe('limit');
    expect(d.endAt).toBe(Date.parse('2026-11-26T10:10:00Z'));
    expect(d.warnAt).toBe(d.endAt - 60_000);
  });
  test('an unreadable limit leaves the idle rule alone', () => {
    expect(sessionDeadlines(0, { idleTimeoutSeconds: 60, expiresAt: 'soon' }).reason).toBe('idle');
  });
  test('a call moves the last-seen time only a minute or more after the previous one, like the server', () => {
    expect(nextSeen(0, 59_999)).toBe(0);
    expect(nextSeen(0, 60_000)).toBe(60_000);
  });
});

describe('kept newsletter drafts', () => {
  const content = { subject: 'Cleanroom news', preheader: '', markdown: 'Hello', articles: ['gmp'] };
  test('read back what was stored', () => {
    expect(parseDraft(JSON.stringify({ id: 4, content }))).toEqual({ id: 4, content });
    expect(parseDraft(JSON.stringify({ id: null, content }))).toEqual({ id: null, content });
  });
  test('ignore nothing, empty text, foreign shapes and broken JSON', () => {
    expect(parseDraft(null)).toBeNull();
    expect(parseDraft('{')).toBeNull();
    expect(parseDraft(JSON.stringify({ id: 'x', content }))).toBeNull();
    expect(parseDraft(JSON.stringify({ id: null, content: { subject: ' ', markdown: '' } }))).toBeNull();
    expect(parseDraft(JSON.stringify({ id: null, content: { ...content, articles: [1] } }))).toBeNull();
  });
});

describe('new passwords in the browser', () => {
  test('need 12 characters, counted as characters, not UTF-16 units', () => {
    expect(passwordProblem('eleven char', 'eleven char')).toBe('too_short');
    expect(passwordProblem('ćevapčići ok', 'ćevapčići ok')).toBeNull();
  });
  test('must be typed the same twice', () => {
    expect(passwordProblem('twelve chars ok', 'twelve chars OK')).toBe('mismatch');
  });
  test("say the browser's reason, else the server's, else the policy's general refusal", () => {
    const copy = admin.password;
    expect(passwordMessage(copy, 'mismatch')).toBe(copy.mismatch);
    expect(passwordMessage(copy, null, 'Choose one without the firm’s name.')).toBe(
      'Choose one without the firm’s name.',
    );
    expect(passwordMessage(copy, null, '')).toBe(copy.rejected);
    expect(passwordMessage(copy, null)).toBeNull();
  });
});

describe('mailed links and codes', () => {
  test('the token comes from the fragment only', () => {
    expect(linkToken('#token=abc.DEF_1')).toBe('abc.DEF_1');
    expect(linkToken('#token=')).toBeNull();
    expect(linkToken('')).toBeNull();
  });
  test('an authenticator key is grouped in fours for typing', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDE')).toBe('ABCD E');
  });
  test('the recovery file names the account and lists one code a line', () => {
    expect(recoveryFile(['aaaa-bbbb', 'cccc-dddd'], 'Codes for x@korvel.example')).toBe(
      'Codes for x@korvel.example\n\naaaa-bbbb\ncccc-dddd\n',
    );
  });
});

describe('activity log', () => {
  test('actions show by their name, unknown ones as stored', () => {
    const names = { auth_sign_in: 'Signed in with the password', http_401: 'Refused: not signed in' };
    expect(actionLabel(names, 'auth.sign_in')).toBe('Signed in with the password');
    expect(actionLabel(names, 'http.401')).toBe('Refused: not signed in');
    expect(actionLabel(names, 'meeting.rescheduled')).toBe('meeting.rescheduled');
  });
  test('every action the server records has an English name in the Activity tab', () => {
    const unnamed = ACTIVITY_ACTIONS.filter(
      (action) => actionLabel(admin.activity_actions, action) === action,
    );
    expect(unnamed).toEqual([]);
  });
});
