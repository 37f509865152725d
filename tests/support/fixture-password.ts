/**
 * The password hash of the accounts the API and end-to-end tests make for themselves. The server hashes at
 * N=2^17 (128 MiB, 0.3 s of CPU a run), and the tests sign in hundreds of times: at that cost their sign-ins
 * were a third of an API run's CPU (issue 26). A fixture account is stored at N=2^12 instead, as an account
 * hashed before a cost was raised would be; every sign-in still runs the server's own scrypt check, at the cost
 * the stored hash names. What depends on the cost itself runs at the server's: a password set through the
 * product (invitation, reset, change) is hashed by the server, and the login-timing test in
 * tests/api/attacks.test.ts gives its account a hash made by `hashPassword` as the server makes it.
 */
import { hashPassword, type ScryptCost } from '../../src/server/password.ts';

const FIXTURE_COST: ScryptCost = { N: 2 ** 12, r: 8, p: 1 };
const hashes = new Map<string, Promise<string>>();

/** The fixture hash of `password`, made once per process: tests create many accounts with few passwords. */
export function fixtureHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password, FIXTURE_COST)));
  return hash;
}
