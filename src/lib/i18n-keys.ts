/** Flattens nested translation resources to dotted keys: `{ a: { b: 'x' } }` → `['a.b']`. */
export function flattenKeys(resource: unknown, prefix = ''): string[] {
  if (resource === null || typeof resource !== 'object') return prefix ? [prefix] : [];
  return Object.entries(resource as Record<string, unknown>).flatMap(([key, value]) =>
    flattenKeys(value, prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * Keys the base locale has and another locale lacks, and keys only the other has.
 * @example compareKeys({ a: 'x', b: 'y' }, { a: 'x', c: 'z' }) // { missing: ['b'], extra: ['c'] }
 */
export function compareKeys(base: unknown, other: unknown): { missing: string[]; extra: string[] } {
  const baseKeys = new Set(flattenKeys(base));
  const otherKeys = new Set(flattenKeys(other));
  return {
    missing: [...baseKeys].filter((key) => !otherKeys.has(key)),
    extra: [...otherKeys].filter((key) => !baseKeys.has(key)),
  };
}
