/** A row as the drivers return it: column name → value. */
export type Row = Record<string, unknown>;

/** Anything that runs one parameterised statement: the database, or a transaction on it. */
export interface Queryable {
  /**
   * Runs one statement with `$1…$n` placeholders and returns its rows.
   * Integer columns come back as numbers; cast counts with `::int`.
   */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** A transaction: parameterised statements plus whole SQL scripts (migrations). */
export interface Tx extends Queryable {
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export type DbKind = 'neon' | 'pg' | 'pglite';

export interface Db extends Queryable {
  readonly kind: DbKind;
  /** Runs `fn` inside BEGIN … COMMIT; any throw rolls the whole transaction back. */
  transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** The database cannot be reached or refuses connections; callers answer 503. */
export class DbUnavailableError extends Error {
  override readonly name = 'DbUnavailableError';
}

/** Network-level failures and the Postgres classes that mean "not now" rather than "bad statement". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;

/** Tells connection failures apart from statement errors, for any of the three drivers. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)))
    return true;
  const cause = (error as { sourceError?: unknown; cause?: unknown }).sourceError ?? error.cause;
  if (cause && cause !== error && isUnavailable(cause)) return true;
  return /Connection terminated|connect ECONNREFUSED|Error connecting to database|fetch failed|HTTP status 5\d\d|timeout exceeded when trying to connect/i.test(
    error.message,
  );
}

/** Rethrows `error`, turned into {@link DbUnavailableError} when it is a connection failure. */
export function rethrow(error: unknown): never {
  if (error instanceof DbUnavailableError) throw error;
  if (isUnavailable(error)) {
    throw new DbUnavailableError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  throw error;
}

/** Wraps a driver call so connection failures surface as {@link DbUnavailableError}. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    rethrow(error);
  }
}
