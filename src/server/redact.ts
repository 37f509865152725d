/**
 * What may leave the server in a log line or an admin's screen without a person's data in it (ASVS 16.2.5):
 * database errors without the row values PostgreSQL quotes in `detail` and its neighbours, and mail errors
 * without the addresses an SMTP server repeats in its reply.
 */

/** A PostgreSQL error as node-postgres, PGlite and the Neon driver raise it: a five-character SQLSTATE. */
interface DatabaseErrorLike {
  code: string;
  message: string;
  severity?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  routine?: unknown;
}

const isDatabaseError = (error: unknown): error is DatabaseErrorLike => {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
};

/**
 * The error as it may be logged. A database error keeps its SQLSTATE, severity, message and the names of the
 * table, column, constraint and routine involved; `detail` ("Key (email)=(…) already exists", "Failing row
 * contains (…)"), `where`, `hint`, the query and the stack are left out, and a value a data error quotes at the
 * end of its message ("invalid input syntax for type integer: "…"") becomes `[redacted]`. Anything else is
 * returned as it is.
 */
export function loggable(error: unknown): unknown {
  if (!isDatabaseError(error)) return error;
  const names = Object.fromEntries(
    (['severity', 'table', 'column', 'constraint', 'routine'] as const)
      .filter((key) => typeof error[key] === 'string' && error[key] !== '')
      .map((key) => [key, error[key]]),
  );
  return {
    name: 'DatabaseError',
    code: error.code,
    message: error.message.replace(/: ".*"$/s, ': "[redacted]"'),
    ...names,
  };
}

const ADDRESS = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[A-Za-z0-9-]+/g;

/** `text` with every e-mail address in it replaced by `[address]` (an SMTP reply repeats the recipient). */
export const withoutAddresses = (text: string): string => text.replace(ADDRESS, '[address]');
