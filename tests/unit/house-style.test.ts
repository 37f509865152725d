import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { britishSpelling, checkFile, fixFile, THIN_SPACE } from '../../src/lib/house-style.ts';
import { styledFiles } from '../../scripts/lib/styled-files.ts';
import { SPEC_FIXED } from '../../src/lib/spec-fixed.ts';

const root = process.cwd();

describe('britishSpelling', () => {
  test('turns -ize and -yze words into -ise and -yse', () => {
    expect(britishSpelling('organization')).toBe('organisation');
    expect(britishSpelling('Electrolyzer')).toBe('Electrolyser');
  });

  test('leaves size, prize and words already British alone', () => {
    for (const word of ['size', 'oversized', 'prize', 'seize', 'colour', 'licence', 'organise']) {
      expect(britishSpelling(word)).toBeUndefined();
    }
  });

  test('keeps the capital of a word at the start of a sentence', () => {
    expect(britishSpelling('Center')).toBe('Centre');
  });
});

describe('fixFile', () => {
  test('puts a thin space between a number and its unit or percent sign', () => {
    expect(fixFile('a.json', '{ "text": "30% at 25 °C and 40 percent" }')).toBe(
      `{ "text": "30${THIN_SPACE}% at 25${THIN_SPACE}°C and 40${THIN_SPACE}%" }`,
    );
  });

  test('spells a length in metres but leaves a flow meter alone', () => {
    expect(fixFile('a.json', '{ "text": "a 10-cubic-meter tank, 2 meters up, a flow meter" }')).toBe(
      '{ "text": "a 10-cubic-metre tank, 2 metres up, a flow meter" }',
    );
  });

  test('leaves part numbers such as 316L and 3D alone', () => {
    const text = '{ "text": "316L steel in a 3D model" }';
    expect(fixFile('a.json', text)).toBe(text);
  });

  test('writes dates day first and negative temperatures with a minus sign', () => {
    expect(fixFile('a.yaml', "outcome: 'Held at -40 °C since November 11, 2024'\n")).toBe(
      `outcome: 'Held at −40${THIN_SPACE}°C since 11 November 2024'\n`,
    );
  });

  test('never touches JSON keys, YAML paths or cited titles', () => {
    const json = '{ "organization": { "title": "How the firm is organised" } }';
    expect(fixFile('a.json', json)).toBe(json);
    const mdx = [
      '---',
      "title: 'Ten metres of pipe'",
      'references:',
      "  - title: 'Requirements for any organization in the food chain'",
      "    url: 'https://www.iso.org/standard/65464.html'",
      '---',
      '',
      'See [the standard](https://example.com/center).',
      '',
    ].join('\n');
    expect(fixFile('a.mdx', mdx)).toBe(mdx);
  });

  test('numbers a table with # rather than the word No', () => {
    const table = '| No  | What |\n| --- | ---- |\n| 1   | Pump |\n';
    expect(fixFile('a.mdx', table)).toBe('| #   | What |\n| --- | ---- |\n| 1   | Pump |\n');
  });
});

describe('what SPEC fixes', () => {
  const ai = 'src/content/blog/integrating-ai.mdx';
  const table = '| No  | What |  Why |\n| --- | ---- | ---- |\n| 1   | Pump | Wear |\n';

  test('the AI article keeps the No over its numbering column: neither reported nor rewritten', () => {
    expect(fixFile(ai, table)).toBe(table);
    expect(checkFile(ai, table)).toEqual([]);
  });

  test('every other rule leaves SPEC-fixed text alone too, and still applies around it', () => {
    const source = `Between 30 percent and 40 percent.\n\n${table}`;
    expect(fixFile(ai, source)).toBe(`Between 30${THIN_SPACE}% and 40${THIN_SPACE}%.\n\n${table}`);
  });

  test('the same No header in a file SPEC says nothing about still becomes #', () => {
    expect(fixFile('src/content/blog/gmp.mdx', table)).toMatch(/^\| # {3}\| What \|/);
  });

  test.each(SPEC_FIXED.map((entry) => [entry.file, entry] as const))(
    '%s still holds the text SPEC fixes',
    (file, { text, spec }) => {
      expect(readFileSync(file, 'utf8'), `SPEC: "${spec}"`).toMatch(text);
    },
  );
});

describe('checkFile', () => {
  test('finds an e-mail address typed into MDX, which must come from <Email />', () => {
    const issues = checkFile('a.mdx', 'Write to info@korvel.example today.\n');
    expect(issues.map((issue) => issue.rule)).toEqual(['contact']);
  });
});

describe('the content and the English locale files', () => {
  test.each(styledFiles(root).map((path) => relative(root, path)))('%s follows the house style', (path) => {
    const issues = checkFile(path, readFileSync(path, 'utf8')).map(
      (issue) => `${path}:${issue.line} ${issue.rule} "${issue.found}"`,
    );
    expect(issues, 'run `npm run style -- --fix`, then change the rest by hand').toEqual([]);
  });
});
