/** Sample data for the embedded dev and preview databases. Never run against a server database. */
import { randomBytes } from 'node:crypto';
import type { Db } from './db/index.ts';
import { encryptSecret, newTotpSecret } from './factors.ts';
import { hashPassword } from './password.ts';
import { findAdminByEmail, setName, upsertAdmin } from './repositories/admins.ts';
import { confirmTotp, setPendingTotp } from './repositories/factors.ts';

export const DEV_ADMIN_EMAIL = 'admin@korvel.example';

/**
 * Addresses on reserved domains; the ones without a date stand for rows imported from the old site. All are
 * confirmed but the newest, which still waits for its confirmation.
 */
const SAMPLE_SUBSCRIBERS: ReadonlyArray<readonly [email: string, daysAgo: number | null]> = [
  ['milica.jovanovic@pharmaplant.example', 412],
  ['d.petrovic@biofab.example', 388],
  ['ana.kovac@foodworks.example', 361],
  ['procurement@chemline.example', 340],
  ['stefan.nikolic@gridpower.example', 322],
  ['quality@sterifill.example', 301],
  ['marko.ilic@refinery-east.example', 287],
  ['jelena.savic@university.example', 265],
  ['tomas.novak@cleanroom-systems.example', 240],
  ['h.becker@anlagenbau.example', 221],
  ['lena.horvat@vaccine-lab.example', 199],
  ['engineering@dairycoop.example', 176],
  ['nikola.popovic@semicon-fab.example', 150],
  ['sara.markovic@validation-partners.example', 131],
  ['ivan.dordevic@solarfarm.example', 112],
  ['katarina.lukic@nutrition-labs.example', 94],
  ['p.rossi@impianti.example', 73],
  ['maja.stojanovic@api-synthesis.example', 51],
  ['vuk.tomic@pipeline-ops.example', 33],
  ['office@packaging-line.example', 12],
  ['bojan.ristic@student.example', 2],
  ['legacy.reader@oldmail.example', null],
  ['former.partner@consulting.example', null],
  ['newsletter@tradefair.example', null],
  ['a.kostic@hospital-pharmacy.example', null],
];

/** What `npm run dev` and `npm run preview` print: enough to sign in, second step included, within a minute. */
export interface DevAdmin {
  email: string;
  password: string;
  /** The TOTP factor as an `otpauth://totp/…` URI: scan it, or paste it into a TOTP tool. */
  otpauth: string;
}

/** Gives the dev owner of a data directory seeded before the team existed its TOTP factor (dev data only). */
export async function upgradeDevAdmin(
  db: Db,
  admin: Omit<DevAdmin, 'otpauth'>,
): Promise<DevAdmin | undefined> {
  const account = await findAdminByEmail(db, admin.email);
  if (!account || account.totp || account.passkeys > 0) return undefined;
  const totp = newTotpSecret(admin.email);
  await setPendingTotp(db, account.id, encryptSecret(totp.secret));
  await confirmTotp(db, account.id, 0);
  return { ...admin, otpauth: totp.uri };
}

/**
 * Creates the dev owner with a fresh random password and a confirmed TOTP factor, and adds the sample
 * subscribers. Production seeds nothing: the first owner there comes from `npm run admin:create`.
 * @returns the owner's credentials, to print.
 */
export async function seedSampleData(db: Db): Promise<DevAdmin> {
  const password = randomBytes(12).toString('base64url');
  await upsertAdmin(db, DEV_ADMIN_EMAIL, await hashPassword(password));
  const admin = (await findAdminByEmail(db, DEV_ADMIN_EMAIL))!;
  await setName(db, admin.id, 'Dev Owner');
  const totp = newTotpSecret(DEV_ADMIN_EMAIL);
  await setPendingTotp(db, admin.id, encryptSecret(totp.secret));
  await confirmTotp(db, admin.id, 0);
  const now = Date.now();
  for (const [email, daysAgo] of SAMPLE_SUBSCRIBERS) {
    const created =
      daysAgo === null ? null : new Date(now - daysAgo * 86_400_000 - (email.length % 9) * 3_600_000);
    // The newest sign-up has not confirmed yet, so the admin shows a pending address from the start.
    const pending = daysAgo !== null && daysAgo < 7;
    await db.query(
      `INSERT INTO subscribers (email, created_at, consented_at, consent_version, source_page, status, confirmed_at)
       VALUES ($1, $2, $2, $3, $4, $5, CASE WHEN $5 = 'confirmed' THEN $2::timestamptz + interval '6 minutes' END)
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [
        email,
        created,
        created ? 'newsletter-2026-11' : null,
        created ? '/blog' : null,
        pending ? 'pending' : 'confirmed',
      ],
    );
  }
  return { email: DEV_ADMIN_EMAIL, password, otpauth: totp.uri };
}
