import { useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { encode } from 'uqr';
import { isApiError, isAuthError } from '../api.ts';
import { confirmTotp, type Enrolled } from '../account-api.ts';
import type { AccountCopy } from '../copy.ts';

interface Props {
  token: string;
  /** The new secret, given once the person confirmed it is them (POST /api/account/totp). */
  secret: { secret: string; uri: string };
  copy: AccountCopy;
  onEnrolled: (result: Enrolled) => void;
  onCancel: () => void;
  onUnauthorized: () => void;
  onFailed: () => void;
}

/**
 * The QR code of an `otpauth://` URI as SVG paths, one square per dark module, drawn by uqr's encoder with
 * its quiet zone; no markup is injected.
 */
function QrCode({ text, label }: { text: string; label: string }) {
  const { path, size } = useMemo(() => {
    const { data, size } = encode(text, { border: 2 });
    const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
    return { path, size };
  }, [text]);
  return (
    <svg
      className="admin-qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#0e2230" />
    </svg>
  );
}

/** Groups a base32 secret in fours so it can be typed: 'JBSWY3DPEHPK3PXP' → 'JBSW Y3DP EHPK 3PXP'. */
export const groupSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Setting up an authenticator app: the QR code or the key to type, then a first code to switch it on. */
export function TotpSetup({ token, secret, copy, onEnrolled, onCancel, onUnauthorized, onFailed }: Props) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s+/g, '');
    setBusy(true);
    setError(null);
    try {
      onEnrolled(await confirmTotp(token, code));
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure, 400) || isApiError(failure, 401) || isApiError(failure, 422)) {
        setError(copy.totp_wrong);
        field.current?.select();
      } else if (isAuthError(failure)) onUnauthorized();
      else onFailed();
    }
  };

  return (
    <div className="admin-totp">
      <p>{copy.totp_scan}</p>
      <div className="admin-totp__grid">
        <QrCode text={secret.uri} label={copy.totp_qr} />
        <div>
          <p className="admin-totp__secret-label">{copy.totp_secret}</p>
          <p className="admin-totp__secret">
            <code data-secret={secret.secret}>{groupSecret(secret.secret)}</code>
          </p>
          <form onSubmit={submit} noValidate>
            <div className="admin-field">
              <label htmlFor={`${id}-code`} className="admin-label">
                {copy.totp_code}
              </label>
              {error && (
                <p id={`${id}-error`} className="admin-field-error" role="alert">
                  {error}
                </p>
              )}
              <input
                ref={field}
                id={`${id}-code`}
                className="admin-input admin-input--code"
                name="code"
                required
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
            </div>
            <div className="admin-card__actions">
              <button type="button" className="admin-button" onClick={onCancel}>
                {copy.totp_cancel}
              </button>
              <button type="submit" className="admin-button admin-button--primary" aria-disabled={busy}>
                {copy.totp_confirm}
              </button>
            </div>
          </form>
        </div>
      </div>
    </div>
  );
}
