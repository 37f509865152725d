/**
 * `npm run admin:create -- --email you@company.com`: creates the first owner (or another active owner), or
 * sets a new password for an existing account (which signs out its sessions). The new owner's first sign-in
 * asks for a passkey or an authenticator app before anything else; everyone after that is invited from the
 * admin's Team tab. The password comes from a hidden prompt, or from stdin when
 * piped: `printf '%s' "$PASSWORD" | npm run admin:create -- --email …`.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { checkEmail } from '../src/lib/email.ts';
import { PASSWORD_MIN_LENGTH } from '../src/lib/schemas.ts';
import { openDb } from '../src/server/db/open.ts';
import { migrate } from '../src/server/migrate.ts';
import { hashPassword } from '../src/server/password.ts';
import { passwordProblem } from '../src/server/password-policy.ts';
import { upsertAdmin } from '../src/server/repositories/admins.ts';

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Echo nothing while the password is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s) => {
    if (s.startsWith('Password')) process.stdout.write(s);
  };
  const password = await rl.question(`Password (at least ${PASSWORD_MIN_LENGTH} characters): `);
  rl.close();
  process.stdout.write('\n');
  return password;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({ options: { email: { type: 'string' } } });
const email = checkEmail(values.email ?? '');
if (!values.email || !email.ok)
  fail(`Give the admin's address: npm run admin:create -- --email you@company.com`);
const password = await readPassword();
const problem = passwordProblem(password, email.email);
if (problem) fail(problem);

const url = process.env.DATABASE_URL;
const db = await openDb(url, url ? undefined : fileURLToPath(new URL('../.data/dev', import.meta.url))).catch(
  (error: Error) => fail(error.message),
);
try {
  await migrate(db);
  const created = await upsertAdmin(db, email.email, await hashPassword(password));
  console.log(
    created
      ? `Owner ${email.email} created. The first sign-in asks to set up a passkey or an authenticator app.`
      : `Password of ${email.email} changed; earlier sessions are signed out.`,
  );
} finally {
  await db.close();
}
