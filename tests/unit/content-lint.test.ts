/**
 * The content linter (npm run lint:content) on a fixture: a copy of the team, one clean article and one that
 * plants an error of every kind. Each must be reported with its file and line; the clean copy passes (with a
 * picture in its text that has a caption, as the Content tab's picture dialog writes it). A story
 * from the firm and a news item need three sources like any article.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  checkGermanGlossary,
  formatProblem,
  lintContent,
  type ContentProblem,
} from '../../scripts/lib/content-lint.ts';

const root = process.cwd();
let fixture: string;

const reference = (n: number) => `  - title: 'Source number ${n} on plant design'
    publisher: 'European Commission'
    year: 2022
    url: 'https://health.ec.europa.eu/document-${n}'`;

/** An article with one planted error of each kind; `line()` finds where each sits (line 1 is the fence). */
const planted = `---
title: 'A planted article with one error of each kind'
summary: 'This article exists only in a test fixture. Every line below that the test names carries one error the content linter must report.'
date: 2026-11-25
author: no-such-person
discipline: 'Process engineering'
divisions: [pharma]
tags: [pharma, gmp]
images:
  - src: '../../assets/articles/planted/1.svg'
    alt: 'image'
references:
${reference(1)}
  - title: 'A source without a year'
    publisher: 'European Medicines Agency'
    url: 'https://www.ema.europa.eu/planted'
---

Write to info@korvel.example for the report.

We recieve the drawings on Monday.

Read [the other article](/blog/no-such-article) and [its author](/about-us/our-team#nobody).

The [section below](#no-such-heading) and the [right one](#a-real-heading) are in this file.

Our article [A clean article](/blog/clean) is cited under a title it does not have.

Our article [A clean article that follows every rule](/blog/clean) is cited as it is called.

![](../../assets/articles/planted/2.svg)

## A real heading

Enough text.
`;

const clean = `---
title: 'A clean article that follows every rule'
summary: 'This article exists only in a test fixture. It cites three sources, names a person on the team page and links only to pages that exist.'
date: 2026-11-25
author: ivana-petrovic
discipline: 'GMP compliance'
divisions: [pharma]
tags: [pharma, gmp]
images:
  - src: '../../assets/articles/clean/1.svg'
    alt: 'Isolator with glove ports in front of a filling line'
references:
${[1, 2, 3].map(reference).join('\n')}
---

Read [our services](/our-services#gmp-consulting), [Ivana's card](/about-us/our-team#ivana-petrovic) and
[the first section](#scope-of-the-review).

## Scope of the review

We review the drawings against EU GMP and write <Email /> for questions.

![Isolator with glove ports seen from the operator side](../../assets/articles/clean/1.svg "The isolator before its qualification")
`;

/** The clean article's German twin (src/content/de/blog/clean.mdx): German words, the same facts. */
const cleanGerman = `---
title: 'Ein sauberer Artikel, der jede Regel einhält'
summary: 'Dieser Artikel existiert nur in einer Testumgebung. Er nennt drei Quellen, eine Person aus dem Team und verlinkt nur Seiten, die es gibt.'
date: 2026-11-25
author: ivana-petrovic
discipline: 'GMP-Compliance'
divisions: [pharma]
tags: [pharma, gmp]
images:
  - src: '../../../assets/articles/clean/1.svg'
    alt: 'Isolator mit Handschuheingriffen vor einer Abfülllinie'
references:
${[1, 2, 3].map(reference).join('\n')}
---

Lesen Sie [unsere Leistungen](/de/our-services#gmp-consulting) und [den ersten Abschnitt](#umfang-der-prüfung).

## Umfang der Prüfung

Wir prüfen die Zeichnungen bei 22 °C und 45 % relativer Feuchte gegen den „EU-GMP-Leitfaden“; Fragen an <Email />.

![Isolator mit Handschuheingriffen, von der Bedienerseite gesehen](../../../assets/articles/clean/1.svg "Der Isolator vor seiner Qualifizierung")
`;

/** A German article with one planted error of each German kind. */
const plantedGerman = `---
title: 'Ein deutscher Artikel mit je einem Fehler'
summary: 'Dieser Artikel existiert nur in einer Testumgebung. Jede Zeile, die der Test nennt, trägt einen Fehler, den die Prüfung melden muss.'
date: 2026-11-25
author: ivana-petrovic
discipline: 'Verfahrenstechnik'
divisions: [pharma]
tags: [pharma, gmp]
images:
  - src: '../../../assets/articles/clean/1.svg'
    alt: 'Isolator mit Handschuheingriffen vor einer Abfülllinie'
references:
${[1, 2, 3].map(reference).join('\n')}
---

Die Anlage läuft mit "Druck" im Reinraum.

Der Kessel hält 2.5 bar aus.

Die Halle misst 1,400 m² bei 25% Feuchte.

Der Bericht kam am 25 November 2026.

Schreib uns, wenn du Fragen hast.

Wir empfangen die Zeichnugnen am Montag.

Lesen Sie [unsere Leistungen](/our-services) noch einmal.
`;

/** The 1-based line of `planted` that contains `text`. */
const line = (text: string) => planted.split('\n').findIndex((row) => row.includes(text)) + 1;

beforeAll(() => {
  fixture = mkdtempSync(join(tmpdir(), 'content-lint-'));
  for (const path of [
    'src/content/team',
    'src/content/de/team',
    'cspell.config.yaml',
    'cspell-words.txt',
    'cspell-words-de.txt',
  ])
    cpSync(join(root, path), join(fixture, path), { recursive: true });
  // cspell.config.yaml imports the en-GB and de-DE dictionaries from node_modules.
  symlinkSync(join(root, 'node_modules'), join(fixture, 'node_modules'));
  mkdirSync(join(fixture, 'src/content/blog'), { recursive: true });
  mkdirSync(join(fixture, 'src/content/de/blog'), { recursive: true });
  writeFileSync(join(fixture, 'src/content/blog/clean.mdx'), clean);
  writeFileSync(join(fixture, 'src/content/de/blog/clean.mdx'), cleanGerman);
});

afterAll(() => rmSync(fixture, { recursive: true, force: true }));

const at = (problems: ContentProblem[], rule: ContentProblem['rule']) =>
  problems.filter((p) => p.rule === rule).map((p) => `${p.file}:${p.line}`);

describe('lintContent', () => {
  test('passes a clean article', async () => {
    expect((await lintContent(fixture)).map(formatProblem)).toEqual([]);
  }, 240_000);

  describe('with a planted article', () => {
    let problems: ContentProblem[];
    const file = 'src/content/blog/planted.mdx';
    beforeAll(async () => {
      writeFileSync(join(fixture, file), planted);
      problems = await lintContent(fixture);
    }, 240_000);
    afterAll(() => rmSync(join(fixture, file)));

    test('reports a misspelt word with its line and suggestions', () => {
      expect(at(problems, 'spelling')).toEqual([`${file}:${line('recieve')}`]);
      expect(problems.find((p) => p.rule === 'spelling')!.fix).toContain('"receive"');
    });

    test('reports a contact address typed into the body', () => {
      expect(at(problems, 'contact')).toEqual([`${file}:${line('info@')}`]);
      expect(problems.find((p) => p.rule === 'contact')!.fix).toContain('<Email />');
    });

    test('reports an article with fewer than three sources and a source without a year', () => {
      expect(at(problems, 'references')).toEqual([
        `${file}:${line('references:')}`,
        `${file}:${line('without a year')}`,
      ]);
    });

    test('reports a byline that names no one on the team page', () => {
      expect(at(problems, 'byline')).toEqual([`${file}:${line('author:')}`]);
    });

    test('reports links to missing pages and anchors, and keeps those that resolve', () => {
      expect(at(problems, 'link')).toEqual(
        [
          line('no-such-article'),
          line('no-such-article'),
          line('no-such-heading'),
          line('[A clean article]('),
        ].map((n) => `${file}:${n}`),
      );
      const messages = problems.filter((p) => p.rule === 'link').map((p) => p.message);
      expect(messages.join('\n')).toContain('/blog/no-such-article');
      expect(messages.join('\n')).toContain('#nobody');
      expect(messages.join('\n')).toContain('#no-such-heading');
    });

    test('reports a link that cites an article under a title it does not have', () => {
      const cited = problems.find((p) => p.line === line('[A clean article]('))!;
      expect(cited.message).toBe(
        '"A clean article" cites /blog/clean, whose title is "A clean article that follows every rule"',
      );
      expect(cited.fix).toBe('write "A clean article that follows every rule"');
    });

    test('reports images without a useful alt text, in the front matter and in the body', () => {
      expect(at(problems, 'alt-text')).toEqual([`${file}:${line("alt: 'image'")}`, `${file}:${line('![]')}`]);
    });

    test('prints file:line, the rule, the problem and the fix', () => {
      expect(formatProblem(problems.find((p) => p.rule === 'byline')!)).toMatch(
        /^src\/content\/blog\/planted\.mdx:5 {2}byline {2}author "no-such-person" is not on the team page → set author to/,
      );
    });
  });
});

describe('sources on stories and news', () => {
  // A story from the firm (tagged community) and a news item are held to the same bar as any article.
  const story = clean
    .replace(
      "title: 'A clean article that follows every rule'",
      "title: 'A story from the firm with one source'",
    )
    .replace('tags: [pharma, gmp]', 'tags: [community, volunteering]')
    .replace(/references:\n[\s\S]*?\n---/, `references:\n${reference(1)}\n---`);
  const news = clean
    .replace("title: 'A clean article that follows every rule'", "title: 'A news item that cites no source'")
    .replace(/references:\n[\s\S]*?\n---/, '---');
  const storyFile = 'src/content/blog/story.mdx';
  const newsFile = 'src/content/news/fair.mdx';
  let problems: ContentProblem[];
  beforeAll(async () => {
    mkdirSync(join(fixture, 'src/content/news'), { recursive: true });
    writeFileSync(join(fixture, storyFile), story);
    writeFileSync(join(fixture, newsFile), news);
    problems = await lintContent(fixture);
  }, 240_000);
  afterAll(() => {
    rmSync(join(fixture, storyFile));
    rmSync(join(fixture, newsFile));
  });

  test('reports a community-tagged story and a news item with fewer than three sources', () => {
    const lineOf = (source: string, text: string) =>
      source.split('\n').findIndex((row) => row.startsWith(text)) + 1;
    expect(at(problems, 'references')).toEqual([
      `${storyFile}:${lineOf(story, 'references:')}`,
      `${newsFile}:${lineOf(news, 'title:')}`,
    ]);
    const messages = problems.filter((p) => p.rule === 'references').map((p) => p.message);
    expect(messages).toEqual(['the article cites 1 source', 'the news item cites 0 sources']);
    // Published in English first: each is a notice that its German version is missing, nothing more.
    expect(problems.filter((p) => p.rule !== 'references').map(formatProblem)).toEqual([
      expect.stringMatching(/^src\/content\/blog\/story\.mdx:1 {2}notice {2}no German version/),
      expect.stringMatching(/^src\/content\/news\/fair\.mdx:1 {2}notice {2}no German version/),
    ]);
  });
});

describe('German content', () => {
  const file = 'src/content/de/blog/planted.mdx';
  const lineOf = (text: string) => plantedGerman.split('\n').findIndex((row) => row.includes(text)) + 1;
  let problems: ContentProblem[];
  beforeAll(async () => {
    writeFileSync(join(fixture, file), plantedGerman);
    writeFileSync(join(fixture, 'src/content/blog/planted.mdx'), clean);
    rmSync(join(fixture, 'src/content/de/team/ivana-petrovic.yaml'));
    problems = await lintContent(fixture);
  }, 240_000);
  afterAll(() => {
    rmSync(join(fixture, file));
    rmSync(join(fixture, 'src/content/blog/planted.mdx'));
    cpSync(
      join(root, 'src/content/de/team/ivana-petrovic.yaml'),
      join(fixture, 'src/content/de/team/ivana-petrovic.yaml'),
    );
  });

  test('reports English quotes, a decimal point, a thousands comma, a unit without its space, a date without its point and "du"', () => {
    expect(
      problems.filter((p) => p.rule === 'typography').map((p) => `${p.line} ${p.message.split(' (')[1]}`),
    ).toEqual([
      `${lineOf('"Druck"')} quotes)`,
      `${lineOf('"Druck"')} quotes)`,
      `${lineOf('2.5 bar')} decimal)`,
      `${lineOf('1,400')} thousands)`,
      `${lineOf('1,400')} unit-spacing)`,
      `${lineOf('25 November')} date)`,
      `${lineOf('Schreib')} address)`,
    ]);
  });

  test('spell-checks German with the de-DE dictionary', () => {
    const spelling = problems.filter((p) => p.rule === 'spelling' && p.file === file);
    expect(spelling.map((p) => `${p.line} ${p.message}`)).toEqual([
      `${lineOf('Zeichnugnen')} "Zeichnugnen" is not in the de-DE dictionary or the project's words`,
    ]);
  });

  test('reports a German page that links the English page of a German twin', () => {
    expect(problems.filter((p) => p.rule === 'link' && p.file === file).map((p) => p.line)).toEqual([
      lineOf('/our-services)'),
    ]);
  });

  test('reports an entry without its German version: a failure for the team, a notice for an article', () => {
    const missing = problems.filter((p) => p.rule === 'translation');
    expect(missing.map((p) => [p.file, Boolean(p.notice)])).toEqual([
      ['src/content/team/ivana-petrovic.yaml', false],
    ]);
  });
});

describe('the German glossary (src/i18n/glossary-de.json)', () => {
  const file = 'src/content/de/blog/glossary.mdx';
  const source = `---
title: 'Ein Artikel mit den Varianten, die das Glossar ersetzt'
summary: 'Wir planen die HVAC nach EU GMP Annex 1.'
---

Die HLK-Planung folgt dem EU-GMP-Leitfaden, Anhang 1; die HVAC-Zentrale steht im Keller.

Der Reindampferzeuger liefert Reinstdampf, und jede Änderung läuft durch Change Control.

Wir liefern Basic und Detail Engineering, das Basic Engineering auch allein.

Zitiert nach PIC/S PE 009 Annex 1 und API 650 Annex I, aber nicht nach Annex 15.
`;
  const lineOf = (text: string) => source.split('\n').findIndex((row) => row.includes(text)) + 1;
  const problems = checkGermanGlossary(file, source);

  test('reports each variant once, with its line and the glossary form', () => {
    expect(problems.map((p) => [p.line, p.message, p.fix.split(' (')[0]])).toEqual([
      [lineOf('summary:'), '"HVAC" is not the glossary\'s term', 'write "HLK"'],
      [lineOf('summary:'), '"EU GMP Annex" is not the glossary\'s term', 'write "EU-GMP-Leitfaden, Anhang"'],
      [lineOf('HVAC-Zentrale'), '"HVAC" is not the glossary\'s term', 'write "HLK"'],
      [lineOf('Reindampferzeuger'), '"Reindampf" is not the glossary\'s term', 'write "Reinstdampf"'],
      [
        lineOf('Reindampferzeuger'),
        '"Change Control" is not the glossary\'s term',
        'write "Änderungskontrolle"',
      ],
      [
        lineOf('Basic und Detail'),
        '"Basic und Detail Engineering" is not the glossary\'s term',
        'write "Basic- und Detail-Engineering"',
      ],
      [
        lineOf('Basic und Detail'),
        '"Basic Engineering" is not the glossary\'s term',
        'write "Basic-Engineering"',
      ],
      [lineOf('Annex 15'), '"Annex" is not the glossary\'s term', 'write "Anhang"'],
    ]);
  });

  test('leaves the glossary forms, longer words and the original English titles it excepts alone', () => {
    const found = problems.map((p) => p.message);
    expect(found.filter((m) => m.includes('Reinstdampf') || m.includes('Leitfaden'))).toEqual([]);
    expect(problems.filter((p) => p.line === lineOf('Annex 15'))).toHaveLength(1);
  });

  test('reads English files not at all, and names the glossary file in every fix', () => {
    expect(checkGermanGlossary('src/content/blog/glossary.mdx', source).length).toBe(problems.length);
    expect(problems.every((p) => p.rule === 'glossary' && p.fix.includes('src/i18n/glossary-de.json'))).toBe(
      true,
    );
  });
});

describe('one gender form (the glossary’s whole-word terms)', () => {
  const file = 'src/i18n/locales/de/career.json';
  const source = `{
  "a": "Unsere Ingenieure prüfen jede Zeichnung, ein Ingenieur zeichnet sie ab.",
  "b": "Wir melden uns bei Bewerbern; Mitarbeiter und Besucher sehen es.",
  "c": "Inspektoren, Auditoren, Studenten und Berufseinsteiger lesen mit, mit einem Kollegen.",
  "d": "Unsere Ingenieurinnen und Ingenieure sprechen mit Ingenieurinnen und Ingenieuren.",
  "e": "Eine Ingenieurin oder ein Ingenieur antwortet; Bewerberinnen und Bewerbern und Kolleginnen und Kollegen auch.",
  "f": "Die Mitarbeiterin im Ingenieurbüro, das Ingenieurwesen und die Verfahrensingenieure; Dušan, Elektroingenieur."
}`;
  const lineOf = (text: string) => source.split('\n').findIndex((row) => row.includes(text)) + 1;
  const problems = checkGermanGlossary(file, source);
  const found = (line: number) => problems.filter((p) => p.line === line).map((p) => p.message.split('"')[1]);

  test('reports a generic masculine with the pair form to write', () => {
    expect(found(lineOf('"a"'))).toEqual(['Ingenieure', 'ein Ingenieur']);
    expect(found(lineOf('"b"'))).toEqual(['Bewerbern', 'Mitarbeiter', 'Besucher']);
    expect(found(lineOf('"c"'))).toEqual(['Inspektoren', 'Auditoren', 'Studenten', 'Berufseinsteiger']);
    expect(problems.find((p) => p.line === lineOf('"a"'))?.fix).toMatch(
      /^write "Ingenieurinnen und Ingenieure"/,
    );
  });

  test('leaves pair forms, a named colleague, feminine forms and compounds alone', () => {
    for (const key of ['"d"', '"e"', '"f"']) expect(found(lineOf(key)), key).toEqual([]);
    expect(found(lineOf('"c"'))).not.toContain('Kollegen');
  });
});

describe('scripts/lint-content.ts', () => {
  test('exits 1 and prints file:line with the fix when content breaks a rule', () => {
    const file = 'src/content/blog/planted.mdx';
    writeFileSync(join(fixture, file), planted.replace('We recieve', 'We receive'));
    try {
      const result = spawnSync(process.execPath, ['scripts/lint-content.ts', fixture], { encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(`${file}:5  byline`);
      expect(result.stdout).not.toContain('spelling');
    } finally {
      rmSync(join(fixture, file));
    }
  }, 240_000);
});
