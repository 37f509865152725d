/**
 * The house style of docs/editing.md as rules a script can check: British spelling, a narrow no-break space
 * between a number and its unit or %, dates as "14 May 2024", "#" over a numbering column and no e-mail or
 * phone typed into MDX. `npm run style` lists what breaks them and `npm run style -- --fix` repairs what needs
 * no judgement (tests/unit/house-style.test.ts keeps the content clean). Text that SPEC fixes word for word
 * (src/lib/spec-fixed.ts) is never reported or rewritten: SPEC wins over the house style.
 */
import { specFixedRanges } from './spec-fixed.ts';

/** U+202F, the non-breaking thin space that separates a number from its unit: "30 %", "25 °C". */
export const THIN_SPACE = '\u202F';

export type StyleRule =
  'spelling' | 'unit-spacing' | 'percent' | 'date' | 'minus' | 'contact' | 'table-header';

export interface StyleIssue {
  rule: StyleRule;
  /** 1-based line in the file. */
  line: number;
  found: string;
  /** What the fix writes instead; absent where a person has to decide. */
  replacement?: string;
}

/** US spellings with their British form; the -ize/-yze family is handled by a pattern below. */
const WORDS: Record<string, string> = {
  afterward: 'afterwards',
  analog: 'analogue',
  behavior: 'behaviour',
  behaviors: 'behaviours',
  catalog: 'catalogue',
  center: 'centre',
  centered: 'centred',
  centers: 'centres',
  centimeter: 'centimetre',
  centimeters: 'centimetres',
  color: 'colour',
  colored: 'coloured',
  colors: 'colours',
  defense: 'defence',
  enrollment: 'enrolment',
  favor: 'favour',
  fiber: 'fibre',
  fibers: 'fibres',
  flavor: 'flavour',
  flavors: 'flavours',
  fulfill: 'fulfil',
  gray: 'grey',
  judgment: 'judgement',
  kilometer: 'kilometre',
  kilometers: 'kilometres',
  labeled: 'labelled',
  labeling: 'labelling',
  labor: 'labour',
  license: 'licence',
  licenses: 'licences',
  liter: 'litre',
  liters: 'litres',
  math: 'maths',
  millimeter: 'millimetre',
  millimeters: 'millimetres',
  modeled: 'modelled',
  modeling: 'modelling',
  molding: 'moulding',
  neighborhood: 'neighbourhood',
  odor: 'odour',
  odors: 'odours',
  program: 'programme',
  programs: 'programmes',
  signaling: 'signalling',
  toward: 'towards',
  traveled: 'travelled',
  traveling: 'travelling',
  vapor: 'vapour',
  vapors: 'vapours',
};

/** Words that end like -ize but are not the suffix. */
const IZE_EXCEPTIONS = /^(?:\w*siz(?:e|es|ed|ing)|prize[sd]?|seize[sd]?|seizing|capsize[sd]?|maize|belize)$/i;

/** Names and titles quoted as their owners spell them. */
const VERBATIM = [
  'World Health Organization',
  'International Organization for Standardization',
  'Food and Drug Administration',
  'Center for Chemical Process Safety',
  'mail programs',
  'computer programs',
];

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const SHORT_MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';

/** Units written after a number. Symbols may touch the number; letter units need a space to count. */
export const UNITS = [
  'MΩ·cm',
  'µS/cm',
  'Nm³/h',
  'm³/h',
  'GWh',
  'MWh',
  'kWh',
  'MWp',
  'kWp',
  'mbar',
  'barg',
  'bar',
  'kPa',
  'MPa',
  'Pa',
  'ppm',
  'ppb',
  'min',
  'm/s',
  'm²',
  'm³',
  'mm',
  'cm',
  'km',
  'µm',
  'nm',
  'mL',
  'kg',
  'MW',
  'kW',
  'kV',
  'Hz',
  'MB',
  'GB',
  'dB',
  '°C',
  '%',
  'm',
  'L',
  'g',
  't',
  'W',
  'V',
  'h',
];
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const UNIT_PATTERN = new RegExp(
  `(\\d)([ \\u00A0\\u2009\\u202F]?)(${UNITS.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}²³])`,
  'gu',
);

function matchCase(model: string, word: string): string {
  if (model === model.toUpperCase() && model.length > 1) return word.toUpperCase();
  return model[0] === model[0]!.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word;
}

/** The British form of a word, or undefined when it is already right. */
export function britishSpelling(word: string): string | undefined {
  const mapped = WORDS[word.toLowerCase()];
  if (mapped) return matchCase(word, mapped);
  if (IZE_EXCEPTIONS.test(word)) return undefined;
  const suffix = /^([a-z]{2,})([iy])z(e|es|ed|ing|ation|ations|er|ers|able)$/i.exec(word);
  if (suffix) return `${suffix[1]}${suffix[2]}s${suffix[3]}`;
  return undefined;
}

interface Finding {
  rule: StyleRule;
  index: number;
  found: string;
  replacement?: string;
}

/** Style findings in one run of prose, with offsets into it. */
export function proseFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  const shielded: [number, number][] = [];
  for (const phrase of VERBATIM) {
    for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
      shielded.push([at, at + phrase.length]);
    }
  }
  const isShielded = (index: number) => shielded.some(([from, to]) => index >= from && index < to);

  for (const match of text.matchAll(/\p{L}+/gu)) {
    const replacement = britishSpelling(match[0]);
    if (replacement && !isShielded(match.index)) {
      findings.push({ rule: 'spelling', index: match.index, found: match[0], replacement });
    }
  }
  // "meter" is also an instrument (a flow meter); only the length after a number or "square"/"cubic" is wrong.
  for (const match of text.matchAll(/\b(\d[\d.,]*[ -]|square[ -]|cubic[ -])(meters?)\b/gi)) {
    const unit = match[2]!;
    findings.push({
      rule: 'spelling',
      index: match.index + match[1]!.length,
      found: unit,
      replacement: matchCase(unit, unit.toLowerCase().replace('meter', 'metre')),
    });
  }
  for (const match of text.matchAll(/(\d)\s*(?:percent|per cent)\b/g)) {
    findings.push({
      rule: 'percent',
      index: match.index,
      found: match[0],
      replacement: `${match[1]}${THIN_SPACE}%`,
    });
  }
  for (const match of text.matchAll(UNIT_PATTERN)) {
    const [found, digit, space, unit] = match as unknown as [string, string, string, string];
    const letterUnit = /^\p{L}/u.test(unit);
    if (space === THIN_SPACE || (letterUnit && space === '')) continue;
    findings.push({
      rule: 'unit-spacing',
      index: match.index,
      found,
      replacement: `${digit}${THIN_SPACE}${unit}`,
    });
  }
  for (const match of text.matchAll(/(^|[\s(])-(?=\d+(?:[.,]\d+)?[ \u00A0\u202F]?°C)/g)) {
    findings.push({ rule: 'minus', index: match.index, found: match[0], replacement: `${match[1]}−` });
  }
  for (const match of text.matchAll(new RegExp(`\\b(${MONTHS}) (\\d{1,2}), (\\d{4})\\b`, 'g'))) {
    findings.push({
      rule: 'date',
      index: match.index,
      found: match[0],
      replacement: `${match[2]} ${match[1]} ${match[3]}`,
    });
  }
  for (const match of text.matchAll(new RegExp(`\\b\\d{1,2}-(?:${SHORT_MONTHS})-\\d{4}\\b`, 'g'))) {
    findings.push({ rule: 'date', index: match.index, found: match[0] });
  }
  return findings;
}

/** Applies every finding that has a replacement, from the end so earlier offsets stay valid. */
function applyFindings(text: string, findings: Finding[]): string {
  let out = text;
  let limit = Infinity;
  for (const finding of findings
    .filter((f) => f.replacement !== undefined)
    .sort((a, b) => b.index - a.index)) {
    if (finding.index + finding.found.length > limit) continue; // overlaps a fix already made
    out = out.slice(0, finding.index) + finding.replacement + out.slice(finding.index + finding.found.length);
    limit = finding.index;
  }
  return out;
}

/** One run of prose with every fixable finding repaired. */
export function fixProse(text: string): string {
  return applyFindings(text, proseFindings(text));
}

/** [start, end) offsets of the prose in a file; everything else (keys, paths, URLs, code) is left alone. */
export type Ranges = [number, number][];

function jsonProse(source: string): Ranges {
  const ranges: Ranges = [];
  for (const match of source.matchAll(/"((?:[^"\\]|\\.)*)"(\s*:)?/g)) {
    if (!match[2]) ranges.push([match.index + 1, match.index + 1 + match[1]!.length]);
  }
  return ranges;
}

/** Front-matter or YAML lines `key: value`: the value is prose unless the key names a path or a link. */
function yamlProse(source: string, from: number, to: number): Ranges {
  const ranges: Ranges = [];
  let inReferences = false;
  let offset = from;
  for (const line of source.slice(from, to).split('\n')) {
    if (/^\S/.test(line)) inReferences = /^references:/.test(line);
    const pair = /^(\s*(?:- )?)([\w-]+):\s+(.*)$/.exec(line);
    const item = /^\s*- (.*)$/.exec(line);
    const value =
      pair && !/^(src|url|sourceUrl|version)$/.test(pair[2]!) ? pair[3] : pair ? undefined : item?.[1];
    if (value !== undefined && !inReferences)
      ranges.push([offset + line.length - value.length, offset + line.length]);
    offset += line.length + 1;
  }
  return ranges;
}

function mdxProse(source: string): Ranges {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(source);
  const ranges: Ranges = front ? yamlProse(source, 4, 4 + front[1]!.length) : [];
  let offset = front ? front[0].length : 0;
  let fenced = false;
  for (const line of source.slice(offset).split('\n')) {
    if (/^```/.test(line)) fenced = !fenced;
    if (!fenced && !/^(import|export \{|```)/.test(line)) {
      // Link targets, bare URLs and inline code are not prose.
      let cursor = 0;
      for (const code of line.matchAll(/\]\([^)]*\)|https?:\/\/\S+|`[^`]*`|[\w.+-]+@[\w-]+\.[\w.]+/g)) {
        ranges.push([offset + cursor, offset + code.index]);
        cursor = code.index + code[0].length;
      }
      ranges.push([offset + cursor, offset + line.length]);
    }
    offset += line.length + 1;
  }
  return ranges;
}

export function proseRanges(path: string, source: string): Ranges {
  if (path.endsWith('.json')) return jsonProse(source);
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return yamlProse(source, 0, source.length);
  if (path.endsWith('.mdx') || path.endsWith('.md')) return mdxProse(source);
  return [[0, source.length]];
}

/** The 1-based line of `source` on which the character at `index` stands. */
export const lineAt = (source: string, index: number) => source.slice(0, index).split('\n').length;

const NUMBERING_HEADER = /^\|\s*No\.?\s*\|(?=.*\n\|\s*-)/gm;

/**
 * Every finding in one content or locale file, with offsets into the whole file, except inside text that SPEC
 * fixes (src/lib/spec-fixed.ts): no house-style rule reports or rewrites that.
 */
function fileFindings(path: string, source: string): Finding[] {
  const findings: Finding[] = [];
  for (const [from, to] of proseRanges(path, source)) {
    for (const finding of proseFindings(source.slice(from, to)))
      findings.push({ ...finding, index: from + finding.index });
  }
  if (/\.mdx?$/.test(path)) {
    const front = /^---\n[\s\S]*?\n---\n/.exec(source)?.[0].length ?? 0;
    const body = source.slice(front);
    for (const match of body.matchAll(/[\w.+-]+@korvel\.example|\+381[\d\s]{6,}/g)) {
      findings.push({ rule: 'contact', index: front + match.index, found: match[0].trim() });
    }
    for (const match of body.matchAll(NUMBERING_HEADER)) {
      findings.push({
        rule: 'table-header',
        index: front + match.index,
        found: match[0],
        replacement: '| #   |',
      });
    }
  }
  const fixed = specFixedRanges(path, source);
  return findings.filter(
    ({ index, found }) => !fixed.some(([from, to]) => index < to && index + found.length > from),
  );
}

/** Every house-style finding in one content or locale file. */
export function checkFile(path: string, source: string): StyleIssue[] {
  return fileFindings(path, source)
    .map((finding) => ({
      rule: finding.rule,
      line: lineAt(source, finding.index),
      found: finding.found,
      ...(finding.replacement !== undefined && { replacement: finding.replacement }),
    }))
    .sort((a, b) => a.line - b.line);
}

/** The file with every fixable finding repaired. */
export function fixFile(path: string, source: string): string {
  return applyFindings(source, fileFindings(path, source));
}
