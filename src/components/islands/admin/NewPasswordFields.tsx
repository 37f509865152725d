import { useId } from 'react';
import type { PasswordCopy } from './copy.ts';

interface Props {
  copy: PasswordCopy;
  /** The message under the fields: the browser's own check or the server's reason. */
  error: string | null;
}

/**
 * A new password and its repetition, with the policy above them; the browser's password manager may offer a
 * strong one (`autocomplete="new-password"`).
 */
export function NewPasswordFields({ copy, error }: Props) {
  const id = useId();
  const described = [`${id}-policy`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <>
      <div className="admin-field">
        <label htmlFor={`${id}-new`} className="admin-label">
          {copy.new}
        </label>
        <p id={`${id}-policy`} className="admin-hint">
          {copy.policy}
        </p>
        {error && (
          <p id={`${id}-error`} className="admin-field-error">
            {error}
          </p>
        )}
        <input
          id={`${id}-new`}
          className="admin-input"
          type="password"
          name="password"
          required
          minLength={12}
          autoComplete="new-password"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={`${id}-repeat`} className="admin-label">
          {copy.repeat}
        </label>
        <input
          id={`${id}-repeat`}
          className="admin-input"
          type="password"
          name="repeat"
          required
          autoComplete="new-password"
          aria-invalid={error ? true : undefined}
        />
      </div>
    </>
  );
}
