/** Strict parsing of query-string parameters: unknown or malformed values are a 400, never a guess. */
import { HttpError } from './http.ts';

export const MAX_PAGE_SIZE = 200;

const invalid = (message: string) => new HttpError(400, 'invalid_query', message);

/** Throws unless every parameter is one of `allowed` and appears at most once. */
export function onlyParams(params: URLSearchParams, allowed: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!allowed.includes(name))
      throw invalid(`Unknown parameter "${name.slice(0, 40)}". Use ${allowed.join(', ')}.`);
    if (seen.has(name)) throw invalid(`Give "${name}" once.`);
    seen.add(name);
  }
}

function positiveInt(params: URLSearchParams, name: string, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(raw) || Number(raw) > max) {
    throw invalid(`"${name}" must be a whole number from 1 to ${max}.`);
  }
  return Number(raw);
}

/** `page` (from 1) and `pageSize` (1–200); both absent means "everything". */
export function paging(params: URLSearchParams): { page?: number; pageSize?: number } {
  return {
    page: positiveInt(params, 'page', 1_000_000),
    pageSize: positiveInt(params, 'pageSize', MAX_PAGE_SIZE),
  };
}

/** A row id from the path: a positive 32-bit integer, written plainly. */
export function rowId(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) {
    throw new HttpError(400, 'invalid_id', 'The id must be a positive whole number.');
  }
  return Number(raw);
}
