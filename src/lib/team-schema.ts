/**
 * The team's payloads (issue 23): sign-in steps, account, invitations and password resets, shared by the admin
 * screens and the functions. A module of its own so the public pages' shared form code (src/lib/schemas.ts)
 * does not carry them.
 */
import * as z from 'zod/mini';
import { email, line, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './schemas.ts';

/** The roles of src/server/repositories/admins.ts, for the forms that pick one. */
export const ROLE_NAMES = ['owner', 'editor', 'sales'] as const;
export const ACCOUNT_NAME_MAX = 120;

/** Tokens we issue (tickets and mailed links): 43 base64url characters. */
const opaqueToken = (what: string) =>
  z.string(`Send the ${what}.`).check(z.regex(/^[A-Za-z0-9_-]{43}$/, `The ${what} is not valid.`));

/** A new password; src/server/password-policy.ts adds the checks that need the list and the address. */
const newPassword = z
  .string('Enter a password.')
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
    z.maxLength(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters.`),
  );

export const mfaSchema = z.strictObject(
  {
    ticket: opaqueToken('sign-in ticket'),
    method: z.enum(['totp', 'recovery'], 'Say "totp" or "recovery".'),
    code: z
      .string('Enter the code.')
      .check(z.minLength(1, 'Enter the code.'), z.maxLength(32, 'The code is too long.')),
  },
  'Send a JSON object with ticket, method and code.',
);

export const ticketSchema = z.strictObject(
  { ticket: opaqueToken('sign-in ticket') },
  'Send a JSON object with the ticket.',
);

/** A WebAuthn response as @simplewebauthn/browser makes it; @simplewebauthn/server checks the inside. */
const webauthnResponse = z.looseObject({
  id: z.string().check(z.maxLength(1400)),
  rawId: z.string().check(z.maxLength(1400)),
  type: z.literal('public-key'),
  response: z.looseObject({}),
});

export const passkeyLoginSchema = z.strictObject(
  { ticket: opaqueToken('sign-in ticket'), response: webauthnResponse },
  'Send a JSON object with the ticket and the passkey response.',
);

export const passkeyRegisterSchema = z.strictObject(
  { response: webauthnResponse, name: z.optional(line('The passkey name', 80)) },
  'Send a JSON object with the passkey response.',
);

/**
 * Proof of identity asked again for every change of a second factor or the recovery codes (ASVS 7.5.1): the
 * current password or a code from the account's authenticator app, one of the two.
 */
const proof = {
  currentPassword: z.optional(
    z.string('Enter your current password.').check(z.minLength(1), z.maxLength(PASSWORD_MAX_LENGTH)),
  ),
  code: z.optional(
    z.string('Enter the code.').check(z.regex(/^\s*[0-9]{3}\s?[0-9]{3}\s*$/, 'Enter the six digits.')),
  ),
};
const oneProof = (value: { currentPassword?: string; code?: string }) =>
  (value.currentPassword === undefined) !== (value.code === undefined);
const PROOF_MESSAGE = 'Confirm it is you: send your current password or a code from your authenticator app.';

/** The body of a factor change that carries nothing else: the proof alone. */
export const reauthSchema = z
  .strictObject(proof, 'Send a JSON object with currentPassword or code.')
  .check(z.refine(oneProof, { message: PROOF_MESSAGE, path: ['currentPassword'] }));

export const totpConfirmSchema = z.strictObject(
  {
    code: z.string('Enter the code.').check(z.regex(/^\s*[0-9]{3}\s?[0-9]{3}\s*$/, 'Enter the six digits.')),
  },
  'Send a JSON object with the code.',
);

export const accountNameSchema = z.strictObject(
  { name: line('Your name', ACCOUNT_NAME_MAX) },
  'Send a JSON object with your name.',
);

export const passwordChangeSchema = z.strictObject(
  {
    currentPassword: z.string('Enter your current password.').check(z.maxLength(PASSWORD_MAX_LENGTH)),
    password: newPassword,
  },
  'Send a JSON object with currentPassword and password.',
);

export const inviteSchema = z.strictObject(
  {
    email,
    role: z.enum(ROLE_NAMES, 'Pick owner, editor or sales.'),
    name: z.optional(line('The name', ACCOUNT_NAME_MAX)),
  },
  'Send a JSON object with email and role.',
);

export const teamPatchSchema = z.strictObject(
  {
    role: z.optional(z.enum(ROLE_NAMES, 'Pick owner, editor or sales.')),
    disabled: z.optional(z.boolean('Say true or false.')),
  },
  'Send a JSON object with role and/or disabled.',
);

export const linkTokenSchema = z.strictObject(
  { token: opaqueToken('link') },
  'Send a JSON object with the token from the link.',
);

export const acceptInvitationSchema = z.strictObject(
  {
    token: opaqueToken('link'),
    password: newPassword,
    name: z.optional(line('Your name', ACCOUNT_NAME_MAX)),
  },
  'Send a JSON object with token and password.',
);

export const resetRequestSchema = z.strictObject({ email }, 'Send a JSON object with email.');

export const resetConfirmSchema = z.strictObject(
  { token: opaqueToken('link'), password: newPassword },
  'Send a JSON object with token and password.',
);
