/**
 * German typography as rules a script can check (issue 25; docs/editing.md, "German"): „…“ quotes, a decimal
 * comma and a thousands point, a space between a number and its unit or %, dates as „25. November 2026“ and
 * the Sie-form. `npm run lint:content` reports what breaks them in src/content/de and the German locale
 * files; nothing is rewritten, since each finding needs a person who reads the sentence.
 */
import { escapeRegExp, lineAt, proseRanges, UNITS, type Ranges } from './house-style.ts';

export type GermanRule = 'quotes' | 'decimal' | 'thousands' | 'unit-spacing' | 'date' | 'address';

export interface GermanIssue {
  rule: GermanRule;
  /** 1-based line in the file. */
  line: number;
  found: string;
  /** What to write instead, in words. */
  fix: string;
}

interface Finding {
  rule: GermanRule;
  index: number;
  found: string;
  fix: string;
}

const GERMAN_UNITS = [...UNITS, 'l', 'ml', 'hl', 'l/h', 'm³/h', 'Mio.', 'Mrd.', '€'];
const UNIT = `(?:${[...new Set(GERMAN_UNITS)]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|')})(?![\\p{L}\\p{N}²³])`;
const MONTHS = 'Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember';
/** English month names German does not share (April, August, September and November it does). */
const ENGLISH_MONTHS = 'January|February|March|May|June|July|October|December';
const INFORMAL = /(?<![\p{L}-])([Dd]u|[Dd]ich|[Dd]ir|[Dd]ein(?:e[mnrs]?)?|[Ee]uch)(?![\p{L}-])/gu;

/** Findings in one run of German prose, with offsets into it. */
export function germanProseFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  // Quotes: „ opens, “ closes; ‚ opens, ‘ closes. A " or ” anywhere, or a “ that closes nothing, is English.
  let open = false;
  for (const match of text.matchAll(/[„“”"]/g)) {
    const mark = match[0];
    if (mark === '„') open = true;
    else if (mark === '“' && open) open = false;
    else
      findings.push({
        rule: 'quotes',
        index: match.index,
        found: mark,
        fix: 'German quotes open low and close high: „so“ (inner ‚so‘)',
      });
  }
  const unitAfter = (space: string) => new RegExp(`^${space}${UNIT}`, 'u');
  // 2.5 bar is English; 1.400 m² (three digits after the point) is a German thousands point.
  for (const match of text.matchAll(/(?<![\d.,\p{L}§])\d+\.(\d+)(?![\d.])/gu)) {
    const rest = text.slice(match.index + match[0].length);
    if (match[1]!.length !== 3 && unitAfter('[ \\u00A0\\u202F]?').test(rest))
      findings.push({
        rule: 'decimal',
        index: match.index,
        found: match[0],
        fix: `German writes a decimal comma: ${match[0].replace('.', ',')}`,
      });
  }
  for (const match of text.matchAll(/(?<![\d.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,])/g)) {
    const rest = text.slice(match.index + match[0].length);
    if (match[0].split(',').length > 2 || unitAfter('[ \\u00A0\\u202F]?').test(rest))
      findings.push({
        rule: 'thousands',
        index: match.index,
        found: match[0],
        fix: `German groups thousands with a point: ${match[0].replaceAll(',', '.')}`,
      });
  }
  // Only symbols: a letter straight after digits is as often a designation (316L, DN50) as a unit.
  for (const match of text.matchAll(/(?<![\p{L}\p{N}-])(\d+(?:,\d+)?)(%|‰|°C|€)/gu)) {
    findings.push({
      rule: 'unit-spacing',
      index: match.index,
      found: match[0],
      fix: `a space between number and unit: ${match[1]}\u00A0${match[2]}`,
    });
  }
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2}) (${MONTHS}) (\\d{4})\\b`, 'g')))
    findings.push({
      rule: 'date',
      index: match.index,
      found: match[0],
      fix: `the day takes a point: ${match[1]}. ${match[2]} ${match[3]}`,
    });
  for (const match of text.matchAll(new RegExp(`\\b(${ENGLISH_MONTHS})\\b`, 'g')))
    findings.push({
      rule: 'date',
      index: match.index,
      found: match[0],
      fix: 'write the month in German (Januar, Februar, März, Mai, Juni, Juli, Oktober, Dezember)',
    });
  for (const match of text.matchAll(INFORMAL))
    findings.push({
      rule: 'address',
      index: match.index,
      found: match[0],
      fix: 'Korvel addresses readers as „Sie“ (Sie, Ihr, Ihnen)',
    });
  return findings;
}

/** The prose of a German file without the quotes that delimit YAML scalars or JSX attribute values. */
function germanProse(path: string, source: string): Ranges {
  return proseRanges(path, source).flatMap(([from, to]): Ranges => {
    const text = source.slice(from, to);
    const delimited = /^(['"])([\s\S]*)\1\s*$/.exec(text);
    if (delimited && !path.endsWith('.json')) return [[from + 1, from + 1 + delimited[2]!.length]];
    // `caption="…"` in an MDX line: the attribute's own quotes are code.
    const ranges: Ranges = [];
    let cursor = from;
    for (const attribute of text.matchAll(/\b[\w-]+=(")([^"]*)"/g)) {
      const start = from + attribute.index + attribute[0].length - attribute[2]!.length - 1;
      ranges.push([cursor, start - 1], [start, start + attribute[2]!.length]);
      cursor = start + attribute[2]!.length + 1;
    }
    ranges.push([cursor, to]);
    return ranges.filter(([a, b]) => b > a);
  });
}

/** Every German typography finding in one German content or locale file. */
export function checkGermanFile(path: string, source: string): GermanIssue[] {
  const issues: GermanIssue[] = [];
  for (const [from, to] of germanProse(path, source)) {
    for (const finding of germanProseFindings(source.slice(from, to)))
      issues.push({
        rule: finding.rule,
        line: lineAt(source, from + finding.index),
        found: finding.found,
        fix: finding.fix,
      });
  }
  return issues.sort((a, b) => a.line - b.line);
}

/**
 * One term of the German glossary (src/i18n/glossary-de.json): the one name the site gives a thing in German,
 * the variants it replaces, and the longer phrases in which a variant stays (an original English title).
 */
export interface GlossaryTerm {
  use: string;
  avoid: string[];
  except?: string[];
  /**
   * The variants are whole words: `Mitarbeiter` is a generic masculine, `Mitarbeiterin` and `Mitarbeiterkonto`
   * are not. Without it a variant also counts at the start of a longer word (`Reindampferzeuger`).
   */
  whole?: boolean;
  note?: string;
}

export interface GlossaryIssue {
  /** 1-based line in the file. */
  line: number;
  /** The variant as the file writes it. */
  found: string;
  /** The glossary's form. */
  use: string;
  note?: string;
}

/**
 * Every place a German file writes a variant the glossary replaces. A variant counts where no letter or digit
 * precedes it (`Reindampf`, `Reindampferzeuger`; not `Reinstdampf`); each stretch of text is reported once, for
 * the first term that names it, so `EU GMP Annex 1` gives one finding, not one per term it contains. A term
 * marked `whole` counts only where its variant ends a word.
 */
export function checkGlossary(path: string, source: string, terms: readonly GlossaryTerm[]): GlossaryIssue[] {
  const issues: (GlossaryIssue & { at: number })[] = [];
  for (const [from, to] of germanProse(path, source)) {
    const text = source.slice(from, to);
    const taken: [number, number][] = [];
    const allowed = (start: number, end: number, except: readonly string[]) =>
      except.some((phrase) =>
        [...text.matchAll(new RegExp(escapeRegExp(phrase), 'g'))].some(
          (m) => m.index <= start && m.index + phrase.length >= end,
        ),
      );
    for (const term of terms) {
      for (const variant of term.avoid) {
        const ending = term.whole ? '(?![\\p{L}\\p{N}])' : '';
        for (const match of text.matchAll(
          new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(variant)}${ending}`, 'gu'),
        )) {
          const start = match.index;
          const end = start + variant.length;
          if (taken.some(([a, b]) => start < b && end > a) || allowed(start, end, term.except ?? []))
            continue;
          taken.push([start, end]);
          const at = from + start;
          issues.push({ at, line: lineAt(source, at), found: variant, use: term.use, note: term.note });
        }
      }
    }
  }
  // In the order of the file, so a report reads top to bottom.
  return issues.sort((a, b) => a.at - b.at).map(({ at: _at, ...issue }) => issue);
}
