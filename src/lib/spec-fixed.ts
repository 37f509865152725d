/**
 * Text that SPEC.md fixes word for word, where it sits in the content. The house style (src/lib/house-style.ts)
 * never reports or rewrites anything inside it, whatever its rules say: SPEC is binding, the house style is a
 * preference. A unit test (tests/unit/house-style.test.ts) checks that every entry is still in its file.
 */
export interface SpecFixed {
  /** The file, relative to the repository root. */
  file: string;
  /** The fixed text as it stands in the file (a pattern where formatting, such as table padding, may vary). */
  text: RegExp;
  /** What SPEC says, quoted. */
  spec: string;
}

export const SPEC_FIXED: readonly SpecFixed[] = [
  {
    file: 'src/content/blog/integrating-ai.mdx',
    text: /^\| *No *\| *What *\| *Why *\|$/m,
    spec: 'AI in pharma manufacturing: … a content table with columns No, What, Why and 5 rows',
  },
];

/** [start, end) offsets in `source` of the SPEC-fixed text of the file at `path` (relative or absolute). */
export function specFixedRanges(path: string, source: string): [number, number][] {
  const normalised = path.replaceAll('\\', '/');
  return SPEC_FIXED.filter(({ file }) => normalised === file || normalised.endsWith(`/${file}`)).flatMap(
    ({ text }) =>
      [...source.matchAll(new RegExp(text.source, `${text.flags.replace('g', '')}g`))].map(
        (match): [number, number] => [match.index, match.index + match[0].length],
      ),
  );
}
