/**
 * The hard cap on guessing an account's password or second factor (issue 35). Each step keeps a count of
 * consecutive failures on the account's row, across networks and sign-in tickets. A try is counted before its
 * password or code is checked, in one statement that refuses once the count holds the step's cap
 * ({@link FAILURE_CAP}), so 50 guesses sent at once get at most that many checks between them; a success sets
 * the count back to 0. The failure that reaches the cap locks the step: it stays locked until the account's
 * owner follows the unlock link mailed to them at that moment (it sets a new password,
 * src/server/account-recovery.ts) or a team owner resets the account's factors. NIST SP 800-63B §5.2.2 allows
 * at most 100 consecutive failures. The second step locks after ten (a six-digit code then has a
 * one-in-100,000 chance per lock); the password after twenty, twice what one network may try in 15 minutes
 * (src/server/rate-limit.ts), so that one network alone cannot lock someone out in one go, while the
 * second factor still stands behind any password that is guessed.
 */
import type { Db, Queryable } from './db/index.ts';
import { createAccountLink } from './account-links.ts';
import type { RequestContext } from './http.ts';
import { sendSoon } from './mail/kick.ts';
import { recordActivity } from './repositories/activity.ts';
import type { Admin } from './repositories/admins.ts';
import { enqueueMail } from './repositories/outbox.ts';

/** Consecutive failures of each step after which it locks. */
export const FAILURE_CAP = { password: 20, mfa: 10 } as const;

/** The password step or the second step (TOTP, recovery code, passkey). */
export type Step = 'password' | 'mfa';

const COLUMNS = {
  password: { failures: 'password_failures', locked: 'password_locked_at' },
  mfa: { failures: 'mfa_failures', locked: 'mfa_locked_at' },
} as const;

/**
 * Counts a try of `step` for account `adminId` before it is checked.
 * @returns false when the step is locked or the cap is taken by tries under way: refuse without checking.
 */
export async function reserveTry(db: Queryable, adminId: number, step: Step): Promise<boolean> {
  const { failures, locked } = COLUMNS[step];
  const rows = await db.query(
    `UPDATE admins SET ${failures} = ${failures} + 1
     WHERE id = $1 AND ${locked} IS NULL AND ${failures} < $2 RETURNING id`,
    [adminId, FAILURE_CAP[step]],
  );
  return rows.length === 1;
}

/** The try was right: the step's count starts again from 0. */
export async function trySucceeded(db: Queryable, adminId: number, step: Step): Promise<void> {
  const { failures, locked } = COLUMNS[step];
  await db.query(`UPDATE admins SET ${failures} = 0 WHERE id = $1 AND ${locked} IS NULL`, [adminId]);
}

/**
 * The try was wrong (its count stays). When it was the one that reached the cap, the step locks, and exactly
 * one of the tries that got there at once writes the activity row and queues the mail with the unlock link.
 */
export async function tryFailed(
  db: Db,
  admin: Pick<Admin, 'id' | 'email'>,
  step: Step,
  context: RequestContext,
): Promise<void> {
  const { failures, locked } = COLUMNS[step];
  const mailIds = await db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE admins SET ${locked} = now() WHERE id = $1 AND ${locked} IS NULL AND ${failures} >= $2 RETURNING id`,
      [admin.id, FAILURE_CAP[step]],
    );
    if (rows.length === 0) return [];
    const link = await createAccountLink(tx, admin.id, 'unlock');
    await recordActivity(tx, {
      actor: { id: admin.id, email: admin.email },
      action: 'auth.locked',
      target: step === 'password' ? 'password' : 'second step',
      ip: context.ip,
    });
    return enqueueMail(tx, [
      {
        key: `account-locked:${link.id}`,
        template: 'account-locked',
        to: admin.email,
        params: { linkId: link.id, step },
      },
    ]);
  });
  await sendSoon(context, db, mailIds);
}

/** Whether the step is locked for the account now. */
export async function isLocked(db: Queryable, adminId: number, step: Step): Promise<boolean> {
  const [row] = await db.query<{ locked: boolean }>(
    `SELECT ${COLUMNS[step].locked} IS NOT NULL AS locked FROM admins WHERE id = $1`,
    [adminId],
  );
  return row?.locked === true;
}

/** Both steps open again with their counts at 0: a new password from the unlock link, or an owner's reset. */
export async function unlockAccount(db: Queryable, adminId: number): Promise<void> {
  await db.query(
    `UPDATE admins SET password_failures = 0, password_locked_at = NULL, mfa_failures = 0, mfa_locked_at = NULL
     WHERE id = $1`,
    [adminId],
  );
}
