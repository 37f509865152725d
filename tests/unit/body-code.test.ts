import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codeInBody } from '../../src/server/content/body-code.ts';

describe('code in an article body saved from the Content tab', () => {
  test.each([
    ['import Chart from "./chart.js"', 'an import or export line'],
    ['export const a = 1', 'an import or export line'],
    ['Text {process.env.SECRET} here.', 'a {…} expression'],
    ['{(() => fetch("https://collector.example"))()}', 'a {…} expression'],
    ['<ComparisonTable rows={[{ area: `a${1}` }]} />', 'the rows attribute of <ComparisonTable>'],
    ['<ComparisonTable rows={[...shared]} />', 'the rows attribute of <ComparisonTable>'],
    ['<ComparisonTable {...props} />', 'a {…} attribute of <ComparisonTable>'],
    ['<Email address={"sales" + "@korvel.example"} />', 'the address attribute of <Email>'],
    ['<ComparisonTable rows={[{ [key]: "x" }]} />', 'the rows attribute of <ComparisonTable>'],
  ])('%s is refused', (body, what) => {
    expect(codeInBody(`Intro.\n\n${body}\n`)).toContain(`Line 3 holds ${what}`);
  });

  test.each([
    '{/* Übersetzung von src/content/blog/gmp.mdx */}',
    '<ComparisonTable caption="x" rows={[{ area: "a", "medicinal": \'b\', n: -1, ok: true, none: null }]} />',
    '<Email />',
  ])('%s saves', (body) => {
    expect(codeInBody(`Intro.\n\n${body}\n`)).toBeUndefined();
  });

  test('text that is not MDX is refused with the parser’s reason and its line', () => {
    expect(codeInBody('Intro.\n\nAn unclosed <div> tag.\n')).toMatch(
      /^Line 3 is not valid MDX: Expected a closing tag/,
    );
  });

  test('every article and news item in the repository saves as it is', () => {
    for (const dir of ['blog', 'news', 'de/blog', 'de/news'].map((d) => join('src/content', d))) {
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.mdx'))) {
        const body = readFileSync(join(dir, file), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
        expect(codeInBody(body), file).toBeUndefined();
      }
    }
  });
});
