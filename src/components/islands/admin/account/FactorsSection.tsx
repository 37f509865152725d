import { lazy, Suspense, useId, useState, type SubmitEvent } from 'react';
import {
  addPasskey,
  passkeyOptions,
  removePasskey,
  removeTotp,
  renewRecoveryCodes,
  type Account,
  type Enrolled,
} from '../account-api.ts';
import { isApiError, isAuthError } from '../api.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import type { AccountCopy } from '../copy.ts';
import { fill, localDateTime, plural } from '../format.ts';

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

type Asking = { kind: 'totp' } | { kind: 'passkey'; id: string; name: string } | { kind: 'codes' };

/**
 * The second factors: an authenticator app (set up with a QR code, or removed), passkeys (added through the
 * browser's WebAuthn prompt, named, removed) and the recovery codes (count, renew). The server refuses to
 * remove the last factor (409 `last_factor`).
 */
export function FactorsSection(props: Props) {
  const { token, account, copy, notify, onUnauthorized, onChanged } = props;
  const id = useId();
  const [settingUp, setSettingUp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const { factors } = account;

  const failed = (error: unknown, message: string) => {
    if (isApiError(error, 409, 'last_factor')) notify(copy.last_factor, 'error');
    else if (isAuthError(error)) onUnauthorized();
    else notify(message, 'error');
  };

  const enrolled = (result: Enrolled, message: string) => {
    setSettingUp(false);
    notify(message);
    props.onEnrolled(result);
  };

  const createPasskey = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setBusy(true);
    try {
      const { browserSupportsWebAuthn, startRegistration } = await import('@simplewebauthn/browser');
      if (!browserSupportsWebAuthn()) {
        notify(copy.passkey_unsupported, 'error');
        return;
      }
      const options = (await passkeyOptions(token)) as Parameters<typeof startRegistration>[0]['optionsJSON'];
      const response = await startRegistration({ optionsJSON: options });
      form.reset();
      enrolled(await addPasskey(token, response, name), copy.passkey_added);
    } catch (error) {
      failed(error, copy.passkey_failed);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    const what = asking;
    setAsking(null);
    if (!what || busy) return;
    setBusy(true);
    try {
      if (what.kind === 'codes') props.onCodes(await renewRecoveryCodes(token));
      else {
        if (what.kind === 'totp') await removeTotp(token);
        else await removePasskey(token, what.id);
        notify(what.kind === 'totp' ? copy.totp_removed : copy.passkey_removed);
      }
      onChanged();
    } catch (error) {
      failed(error, what.kind === 'codes' ? copy.recovery_failed : copy.remove_failed);
    } finally {
      setBusy(false);
    }
  };

  const dialog =
    asking?.kind === 'totp'
      ? {
          title: copy.totp_remove_title,
          text: copy.totp_remove_text,
          detail: copy.totp,
          accept: copy.totp_remove,
        }
      : asking?.kind === 'passkey'
        ? {
            title: copy.passkey_remove_title,
            text: copy.passkey_remove_text,
            detail: asking.name,
            accept: copy.passkey_remove,
          }
        : {
            title: copy.recovery_new_title,
            text: copy.recovery_new_text,
            detail: copy.recovery_new_detail,
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
              copy={copy}
              onEnrolled={(result) => enrolled(result, copy.totp_added)}
              onCancel={() => setSettingUp(false)}
              onUnauthorized={onUnauthorized}
              onFailed={() => {
                setSettingUp(false);
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
                onClick={() => setSettingUp(true)}
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
        <form className="admin-factor__add" onSubmit={createPasskey}>
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
      <ConfirmDialog
        open={asking !== null}
        title={dialog.title}
        text={dialog.text}
        detail={dialog.detail}
        confirmLabel={dialog.accept}
        cancelLabel={copy.cancel}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}
