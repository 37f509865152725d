/** Standard numbers and codes stay on one line: src/lib/unbroken.ts and its rehype plugin. */
import { markdownToHtml } from 'satteri';
import { describe, expect, test } from 'vitest';
import { unbrokenDesignations } from '../../src/lib/unbroken-plugin.ts';
import { splitDesignations } from '../../src/lib/unbroken.ts';

const kept = (text: string) =>
  splitDesignations(text)
    .filter((segment) => segment.unbroken)
    .map((segment) => segment.text);

describe('splitDesignations', () => {
  test('finds standard numbers and codes', () => {
    expect(
      kept(
        'ISO 14644-1 class, IEC 60079-10-1 zones, J-STD-033D, AACE 18R-97, Hastelloy C-276 and a BSL-2 suite',
      ),
    ).toEqual(['14644-1', '60079-10-1', 'J-STD-033D', '18R-97', 'C-276', 'BSL-2']);
  });

  test('leaves words, en-dash ranges and lower-case compounds alone', () => {
    expect(kept('an ESD-safe, low-dew-point room at 20–50 % RH for co-creation')).toEqual([]);
  });

  test('gives the text back when joined', () => {
    const text = 'Grade A per EU GMP Annex 1, ISO 14644-1 and EN 1672-2.';
    expect(
      splitDesignations(text)
        .map((segment) => segment.text)
        .join(''),
    ).toBe(text);
  });
});

describe('the Markdown plugin', () => {
  const html = (markdown: string) =>
    markdownToHtml(markdown, { hastPlugins: [unbrokenDesignations] }).html.trim();

  test('wraps each designation in prose, links included', () => {
    expect(html('The ISO 14644-1 class and [EN 1672-2](/x).')).toBe(
      '<p>The ISO <span class="unbroken">14644-1</span> class and <a href="/x">EN <span class="unbroken">1672-2</span></a>.</p>',
    );
  });

  test('leaves code as it is', () => {
    expect(html('Run `ISO-14644-1` and\n\n```\nEN 1672-2\n```')).not.toContain('unbroken');
  });
});
