/**
 * What the pages promise about mail and retention must be what the code does: the neutral sign-up reply is
 * one text for the form with and without JavaScript, and the privacy policy states the retention periods
 * the scheduled worker applies (src/server/retention.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import forms from '../../src/i18n/locales/en/forms.json' with { type: 'json' };
import { CONFIRM_LINK_DAYS } from '../../src/server/mail/links.ts';
import { SIGNUP_ACCEPTED } from '../../src/server/newsletter.ts';
import { CONFIRMATION_INTERVAL_MINUTES } from '../../src/server/repositories/subscribers.ts';
import { RETENTION } from '../../src/server/retention.ts';

const policy = readFileSync(new URL('../../src/content/legal/privacy-policy.mdx', import.meta.url), 'utf8');

describe('the newsletter sign-up reply', () => {
  test('reads the same with and without JavaScript', () => {
    expect(SIGNUP_ACCEPTED.message).toBe(forms.newsletter.confirmed);
  });
});

describe('the privacy policy', () => {
  test('states the periods the retention job applies', () => {
    expect(policy).toContain(`**delete the sign-up after ${RETENTION.pendingSignUpDays} days**`);
    expect(policy).toContain(`The link works for ${CONFIRM_LINK_DAYS} days.`);
    expect(policy).toContain(`**${RETENTION.mailPersonalDataDays} days after sending**`);
    expect(policy).toContain(`for **${RETENTION.mailRecordDays} days**`);
    expect(policy).toContain(`**${RETENTION.contactMonths} months after it is closed**`);
    expect(policy).toContain(`**${RETENTION.meetingMonths} months after the meeting date**`);
    expect(policy).toContain(`older than **${RETENTION.rateLimitHours} hours**`);
    expect(policy).toContain(`We keep the daily totals for **${RETENTION.insightMonths} months**`);
    expect(policy).toContain(`we delete it **${RETENTION.importRowsDays} days after the import**`);
  });

  test('describes the confirmation limit and the unsubscribe hash the code keeps', () => {
    expect(CONFIRMATION_INTERVAL_MINUTES).toBe(60);
    expect(policy).toContain('at most one confirmation e-mail an hour');
    expect(policy).toContain('one-way hash');
    expect(policy).not.toContain('within 30 days');
  });
});
