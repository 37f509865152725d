import { lazy, Suspense, useId, useState, type SubmitEvent } from 'react';
import {
  addPasskey,
  passkeyOptions,
  removePasskey,
  removeTotp,
  renewRecoveryCodes,
  startTotp,
  type Account,
  type Enrolled,
  type Proof,
} from '../account-api.ts';
import { isApiError, isAuthError } from '../api.ts';
import type { AccountCopy } from '../copy.ts';
import { fill, localDateTime, plural } from '../format.ts';
import { ProofDialog } from './ProofDialog.tsx';

/** The QR code and its encoder load when the person sets up an app. */
const TotpSetup = lazy(() => import('./TotpSetup.tsx').then((m) => ({ default: m.TotpSetup })));

interface Props {
  token: string;
  account: Account;
  copy: AccountCopy;
  notify: (text: string, tone?: 'success' | 'error') => void;
  onUnauthorized: () => void;
  /** A factor was added: a new token, perhaps the first recovery codes. */
  onEnrolled: (result: Enrolled) => void;
  /** Something changed that GET /api/account reports: read it again. */
  onChanged: () => void;
  onCodes: (codes: string[]) => void;
}

/** A change waiting for the person to confirm it is them. */
type Asking =
  | { kind: 'totp-add' }
  | { kind: 'totp' }
  | { kind: 'passkey-add'; name: string }
  | { kind: 'passkey'; id: string; name: string }
  | { kind: 'codes' };

/**
 * The second factors: an authenticator app (set up with a QR code, or removed), passkeys (added through the
 * browser's WebAuthn prompt, named, removed) and the recovery codes (count, renew). Every change asks for the
 * password (or an app code) again first ({@link ProofDialog}); the server refuses it without, and refuses to
 * remove the last factor (409 `last_factor`).
 */
export function FactorsSection(props: Props) {
  const { token, account, copy, notify, onUnauthorized, onChanged } = props;
  const id = useId();
  const [settingUp, setSettingUp] = useState<{ secret: string; uri: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const { factors } = account;

  const failed = (error: unknown, message: string) => {
    if (isApiError(error, 409, 'last_factor')) notify(copy.last_factor, 'error');
    else if (isAuthError(error)) onUnauthorized();
    else notify(message, 'error');
  };

  const enrolled = (result: Enrolled, message: string) => {
    setSettingUp(null);
    notify(message);
    props.onEnrolled(result);
  };

  const askForPasskey = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    form.reset();
    setAsking({ kind: 'passkey-add', name });
  };

  /** After the proof: the browser's WebAuthn prompt, then the registration. */
  const createPasskey = async (proof: Proof, name: string) => {
    const { browserSupportsWebAuthn, startRegistration } = await import('@simplewebauthn/browser');
    if (!browserSupportsWebAuthn()) {
      setAsking(null);
      notify(copy.passkey_unsupported, 'error');
      return;
    }
    const options = (await passkeyOptions(token, proof)) as Parameters<
      typeof startRegistration
    >[0]['optionsJSON'];
    setAsking(null);
    try {
      const response = await startRegistration({ optionsJSON: options });
      enrolled(await addPasskey(token, response, name), copy.passkey_added);
    } catch (error) {
      failed(error, copy.passkey_failed);
    }
  };

  /** Runs the waiting change with the proof. A refused proof goes back to the dialog to be typed again. */
  const proven = async (proof: Proof) => {
    const what = asking;
    if (!what || busy) return;
    setBusy(true);
    try {
      if (what.kind === 'totp-add') {
        const secret = await startTotp(token, proof);
        setAsking(null);
        setSettingUp(secret);
        return;
      }
      if (what.kind === 'passkey-add') return await createPasskey(proof, what.name);
      if (what.kind === 'codes') props.onCodes(await renewRecoveryCodes(token, proof));
      else {
        if (what.kind === 'totp') await removeTotp(token, proof);
        else await removePasskey(token, what.id, proof);
        notify(what.kind === 'totp' ? copy.totp_removed : copy.passkey_removed);
      }
      setAsking(null);
      onChanged();
    } catch (error) {
      if (isApiError(error, 400) || isApiError(error, 423)) throw error;
      setAsking(null);
      const adding = what.kind === 'totp-add' || what.kind === 'passkey-add';
      failed(
        error,
        what.kind === 'codes' ? copy.recovery_failed : adding ? copy.load_failed : copy.remove_failed,
      );
    } finally {
      setBusy(false);
    }
  };

  const change =
    asking === null
      ? null
      : asking.kind === 'totp-add'
        ? { text: copy.proof_add_text, label: copy.totp, accept: copy.proof_submit }
        : asking.kind === 'passkey-add'
          ? { text: copy.proof_add_text, label: asking.name || copy.passkeys, accept: copy.proof_submit }
          : asking.kind === 'totp'
            ? { text: copy.totp_remove_text, label: copy.totp, accept: copy.totp_remove }
            : asking.kind === 'passkey'
              ? { text: copy.passkey_remove_text, label: asking.name, accept: copy.passkey_remove }
              : {
                  text: copy.recovery_new_text,
                  label: copy.recovery_new_detail,
                  accept: copy.recovery_new_accept,
                };
  const hasFactor = factors.totp || factors.passkeys.length > 0;

  return (
    <section className="admin-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="admin-card__title">
        {account.enrol ? copy.enrol_heading : copy.factors}
      </h2>
      <p className="admin-card__intro">{account.enrol ? copy.enrol_intro : copy.factors_intro}</p>

      <div className="admin-factor">
        <h3 className="admin-factor__title">{copy.totp}</h3>
        {settingUp ? (
          <Suspense
            fallback={
              <p className="admin-status" role="status">
                {copy.loading}
              </p>
            }
          >
            <TotpSetup
              token={token}
              secret={settingUp}
              copy={copy}
              onEnrolled={(result) => enrolled(result, copy.totp_added)}
              onCancel={() => setSettingUp(null)}
              onUnauthorized={onUnauthorized}
              onFailed={() => {
                setSettingUp(null);
                notify(copy.load_failed, 'error');
              }}
            />
          </Suspense>
        ) : (
          <div className="admin-factor__row">
            <p className="admin-factor__state">{factors.totp ? copy.totp_on : copy.totp_off}</p>
            {factors.totp ? (
              <button
                type="button"
                className="admin-button admin-button--small admin-button--danger-quiet"
                aria-disabled={busy}
                onClick={() => setAsking({ kind: 'totp' })}
              >
                {copy.totp_remove}
              </button>
            ) : (
              <button
                type="button"
                className="admin-button admin-button--small"
                aria-disabled={busy}
                onClick={() => setAsking({ kind: 'totp-add' })}
              >
                {copy.totp_add}
              </button>
            )}
          </div>
        )}
      </div>

      <div className="admin-factor">
        <h3 className="admin-factor__title">{copy.passkeys}</h3>
        {factors.passkeys.length === 0 ? (
          <p className="admin-factor__state">{copy.passkeys_none}</p>
        ) : (
          <ul className="admin-factor__list">
            {factors.passkeys.map((passkey) => (
              <li key={passkey.id} className="admin-factor__row">
                <p className="admin-factor__state">
                  <strong>{passkey.name}</strong>{' '}
                  <span className="admin-muted">
                    {fill(copy.passkey_created, { date: localDateTime(passkey.createdAt) })},{' '}
                    {passkey.lastUsedAt
                      ? fill(copy.passkey_used, { date: localDateTime(passkey.lastUsedAt) })
                      : copy.passkey_never}
                  </span>
                </p>
                <button
                  type="button"
                  className="admin-button admin-button--small admin-button--danger-quiet"
                  aria-label={`${copy.passkey_remove}: ${passkey.name}`}
                  aria-disabled={busy}
                  onClick={() => setAsking({ kind: 'passkey', id: passkey.id, name: passkey.name })}
                >
                  {copy.passkey_remove}
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="admin-factor__add" onSubmit={askForPasskey}>
          <div className="admin-field">
            <label htmlFor={`${id}-passkey`} className="admin-label">
              {copy.passkey_name}
            </label>
            <input
              id={`${id}-passkey`}
              name="name"
              className="admin-input"
              maxLength={60}
              placeholder={copy.passkey_name_hint}
              autoComplete="off"
            />
          </div>
          <button type="submit" className="admin-button" aria-disabled={busy}>
            {copy.passkey_add}
          </button>
        </form>
      </div>

      {hasFactor && (
        <div className="admin-factor">
          <h3 className="admin-factor__title">{copy.recovery}</h3>
          <div className="admin-factor__row">
            <p className="admin-factor__state">
              {copy.recovery_intro}{' '}
              {plural(
                { one: copy.recovery_left_one, other: copy.recovery_left_other },
                factors.recoveryCodesLeft,
              )}
            </p>
            <button
              type="button"
              className="admin-button admin-button--small"
              aria-disabled={busy}
              onClick={() => setAsking({ kind: 'codes' })}
            >
              {copy.recovery_new}
            </button>
          </div>
        </div>
      )}
      <ProofDialog
        change={change}
        totp={factors.totp}
        copy={copy}
        onProof={proven}
        onCancel={() => setAsking(null)}
        onUnauthorized={onUnauthorized}
      />
    </section>
  );
}
