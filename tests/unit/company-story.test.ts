/**
 * One story across the site: the founding and EU-market years of site.config, one head count, bylines that are
 * people on the team page, one lead per division and reference notes that match the brand history.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { DIVISIONS } from '../../src/content/constants.ts';
import { site } from '../../src/site.config.ts';
import { styledFiles } from '../../scripts/lib/styled-files.ts';

const root = process.cwd();
const yamlIn = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => ({
      id: name.slice(0, -'.yaml'.length),
      data: parse(readFileSync(join(root, dir, name), 'utf8')),
    }));
const frontMatter = (path: string) =>
  parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(path, 'utf8'))![1]!) as Record<string, unknown>;

const team = yamlIn('src/content/team') as { id: string; data: { name: string; leads?: string } }[];
const references = yamlIn('src/content/references') as {
  id: string;
  data: { year: number; deliveredUnderBrand: boolean };
}[];
/** Every sentence of the content and the English copy (privacy policy and mail copy included). */
const sentences = [
  ...styledFiles(root),
  join(root, 'src/content/legal/privacy-policy.mdx'),
  join(root, 'src/i18n/locales/en/mail.json'),
].flatMap((path) =>
  readFileSync(path, 'utf8')
    .split(/(?<=[.!?])\s+|\n/)
    .map((sentence) => ({ path, sentence })),
);

describe('the company story', () => {
  test('every founding year in the copy is the one in site.config', () => {
    const years = sentences.flatMap(({ path, sentence }) =>
      [...sentence.matchAll(/\bfounded\b[^.]{0,40}?\b(20[0-2]\d)\b/gi)].map((m) => `${m[1]} (${path})`),
    );
    expect(years.length).toBeGreaterThan(0);
    expect(years.filter((year) => !year.startsWith(String(site.established)))).toEqual([]);
  });

  test('every year the EU work started is the one in site.config', () => {
    const patterns = [
      /\bEU\b[^.]{0,40}?\bsince (\d{4})/g,
      /^Since (\d{4}),? we\b[^.]*\bEU\b/g,
      /\bEU market in (\d{4})/g,
    ];
    const years = sentences.flatMap(({ path, sentence }) =>
      patterns.flatMap((pattern) => [...sentence.matchAll(pattern)].map((m) => `${m[1]} (${path})`)),
    );
    expect(years.length).toBeGreaterThan(0);
    expect(years.filter((year) => !year.startsWith(String(site.euMarketSince)))).toEqual([]);
  });

  test('the head count is always "about sixty engineers"', () => {
    const counts = sentences.flatMap(({ path, sentence }) =>
      [
        ...sentence.matchAll(
          /\b(?:about|around|roughly|some|nearly|almost|over|more than)?\s*(?:\d+|sixty|seventy|fifty|eighty)\s+(?:engineers|people|employees|staff)\b/gi,
        ),
      ]
        .map((m) => m[0].trim())
        .filter((phrase) => !/^(?:\d+|[a-z]+) (?:engineers|people)$/i.test(phrase) || /sixty/i.test(phrase))
        .map((phrase) => `${phrase} (${path})`),
    );
    expect(counts.filter((count) => !/^about sixty engineers \(/i.test(count))).toEqual([]);
  });

  test('every byline is a person on the team page', () => {
    const ids = new Set(team.map((member) => member.id));
    const authors = ['blog', 'news'].flatMap((collection) =>
      readdirSync(join(root, 'src/content', collection))
        .filter((name) => name.endsWith('.mdx'))
        .map((name) => ({ name, author: frontMatter(join(root, 'src/content', collection, name)).author })),
    );
    expect(authors.filter(({ author }) => !ids.has(String(author)))).toEqual([]);
  });

  test('each division has exactly one lead on the team page', () => {
    for (const division of DIVISIONS) {
      expect(
        team.filter((member) => member.data.leads === division).map((m) => m.id),
        division,
      ).toHaveLength(1);
    }
  });

  test('a project delivered under the Korvel brand is not older than the brand', () => {
    const older = references.filter(({ data }) => data.deliveredUnderBrand && data.year < site.brandSince);
    expect(older.map(({ id }) => id)).toEqual([]);
  });

  test('the earlier name in the copy is the one in site.config', () => {
    const names = sentences.flatMap(({ sentence }) => [
      ...sentence.matchAll(/\bKPD [A-ZŠ]\w+(?: d\.o\.o\.)?/g),
    ]);
    expect(names.length).toBeGreaterThan(0);
    for (const [name] of names)
      expect(site.formerName.startsWith(name.replace(/ d\.o\.o\.$/, ''))).toBe(true);
  });
});
