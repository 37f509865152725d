/**
 * The end of each sign-in page's form (sign-in, forgotten password, reset, invitation): the live region that
 * announces a failure, then the submit button.
 */
interface Props {
  /** The failure's id, for the fields' `aria-describedby`. */
  errorId: string;
  /** The failure to announce, if any. */
  error: string | undefined;
  busy: boolean;
  /** Disabled until the island has hydrated, where a press could not be handled yet. */
  disabled?: boolean;
  label: string;
}

export function FormEnd({ errorId, error, busy, disabled = false, label }: Props) {
  return (
    <>
      <div role="alert" className="admin-login__alert">
        {error && (
          <p id={errorId} className="admin-error">
            {error}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="admin-button admin-button--primary admin-login__submit"
        disabled={disabled}
        aria-disabled={busy}
      >
        {label}
      </button>
    </>
  );
}
