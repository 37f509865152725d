/**
 * Freezes a value and everything inside it, for an answer a cache hands to many readers (src/i18n/index.ts,
 * scripts/lib/front-matter.ts): in a module, writing to a frozen object throws, so a reader that changed a
 * shared answer fails at once instead of changing what the next reader gets.
 */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}
