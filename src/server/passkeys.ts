/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`. The relying party is the host the request came to, so
 * the same code serves localhost, a deploy preview and the live site; the expected origin is the site's own
 * (the request's origin, SITE_URL or Netlify's URL), as for the Origin check of state changes.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { site } from '../site.config.ts';
import type { Passkey } from './repositories/factors.ts';

const originOf = (value: string | undefined) => {
  try {
    return value ? new URL(value).origin : undefined;
  } catch {
    return undefined;
  }
};

/** The relying party: the request's host name (`localhost` included), and the origins a browser may report. */
export function relyingParty(req: Request, env: NodeJS.ProcessEnv = process.env) {
  const url = new URL(req.url);
  const origins = [url.origin, originOf(env.SITE_URL), originOf(env.URL)].filter(
    (o): o is string => o !== undefined && new URL(o).hostname === url.hostname,
  );
  return { rpID: url.hostname, origins: [...new Set(origins)] };
}

export async function registrationOptions(
  req: Request,
  account: { id: number; email: string; name: string },
  existing: readonly Passkey[],
) {
  return generateRegistrationOptions({
    rpName: site.displayName,
    rpID: relyingParty(req).rpID,
    userName: account.email,
    userDisplayName: account.name || account.email,
    userID: new TextEncoder().encode(`korvel-admin-${account.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** The new credential, or undefined when the response does not verify. */
export async function verifyRegistration(req: Request, response: unknown, challenge: string) {
  const { rpID, origins } = relyingParty(req);
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    if (!result.verified) return undefined;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    return undefined;
  }
}

export async function authenticationOptions(req: Request, passkeys: readonly Passkey[]) {
  return generateAuthenticationOptions({
    rpID: relyingParty(req).rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    userVerification: 'preferred',
  });
}

/** The passkey that signed and its new counter, or undefined when the assertion does not verify. */
export async function verifyAuthentication(
  req: Request,
  response: unknown,
  challenge: string,
  passkeys: readonly Passkey[],
): Promise<{ passkey: Passkey; counter: number } | undefined> {
  const assertion = response as AuthenticationResponseJSON;
  const passkey = passkeys.find((p) => p.credentialId === assertion.id);
  if (!passkey) return undefined;
  const { rpID, origins } = relyingParty(req);
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: false,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    });
    return result.verified ? { passkey, counter: result.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
