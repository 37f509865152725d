/**
 * Designations that must not break at their hyphens. A browser may end a line after any hyphen, which
 * leaves "ISO 14644-" at the end of one line and "1 class" at the start of the next. A designation here is
 * capitals and digits joined by hyphens, with at least one digit: standard numbers and codes such as
 * "14644-1", "60079-10-1", "J-STD-033D", "18R-97", "C-276" or "BSL-2". Words ("ESD-safe") and ranges
 * (written with an en dash) are not matched.
 */
const DESIGNATION = /(?<![\p{L}\p{N}-])(?=[A-Z0-9-]*\d)[A-Z0-9]+(?:-[A-Z0-9]+)+(?![\p{L}\p{N}-])/gu;

/** The class that keeps a designation on one line (src/styles/global.css). */
export const UNBROKEN_CLASS = 'unbroken';

export interface Segment {
  text: string;
  unbroken: boolean;
}

/** Splits text into plain runs and designations, in order; joined, the segments give the text back. */
export function splitDesignations(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(DESIGNATION)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index), unbroken: false });
    segments.push({ text: match[0], unbroken: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), unbroken: false });
  return segments;
}
