/**
 * `npm run lint:content`: what an editor can get wrong in src/content and the locale files that the build does
 * not catch, checked from the sources alone (no build): spelling (cspell: en-GB, or de-DE for src/content/de
 * and the German locale files, with the project's words), German typography (src/lib/german-style.ts), the German
 * glossary (src/i18n/glossary-de.json: one name for one thing), contact details typed into content, blog
 * articles and news items with fewer than three sources, bylines that name no one on the team page, internal
 * links and #anchors that lead nowhere, links that cite an article under another title, images without alt text,
 * and English entries or locale keys without their German version. Every problem names the file, the line and
 * the fix; a notice (an article or news item published in English first) is printed but fails nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readSettings, spellCheckDocument } from 'cspell-lib';
import GithubSlugger from 'github-slugger';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { DIVISIONS, SERVICES } from '../../src/content/constants.ts';
import glossary from '../../src/i18n/glossary-de.json' with { type: 'json' };
import { checkGermanFile, checkGlossary, type GlossaryTerm } from '../../src/lib/german-style.ts';
import { checkFile, lineAt, proseRanges } from '../../src/lib/house-style.ts';
import { localePath, type Lang } from '../../src/i18n/lang.ts';
import { initiatives, routes, sectors } from '../../src/routes.ts';
import { site } from '../../src/site.config.ts';
import { styledFiles } from './styled-files.ts';

export type ContentRule =
  | 'spelling'
  | 'typography'
  | 'glossary'
  | 'translation'
  | 'contact'
  | 'references'
  | 'byline'
  | 'link'
  | 'alt-text';

export interface ContentProblem {
  /** Path relative to the project root. */
  file: string;
  /** 1-based. */
  line: number;
  rule: ContentRule;
  message: string;
  fix: string;
  /** Reported without failing: an article or news item may be published in English first (docs/editing.md). */
  notice?: boolean;
}

/** Every blog article and news item, stories from the firm included, cites at least this many sources. */
export const MIN_REFERENCES = 3;
/** The project's own words (names, standards, trade terms) beside the en-GB dictionary. */
export const CSPELL_CONFIG = 'cspell.config.yaml';

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const idsIn = (dir: string, ext: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(ext))
        .map((name) => name.slice(0, -ext.length))
    : [];

interface Front {
  /** The YAML between the fences, with its offset in the file. */
  yaml: string;
  offset: number;
  /** The body with the front matter blanked to newlines, so offsets and lines still match the file. */
  body: string;
}

function split(source: string): Front {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match) return { yaml: '', offset: 0, body: source };
  return {
    yaml: match[1]!,
    offset: 4,
    body: '\n'.repeat(match[0].split('\n').length - 1) + source.slice(match[0].length),
  };
}

/** A YAML document with a function giving the file line of any of its nodes. */
function yamlOf(text: string, offset: number, source: string) {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  const lineOf = (node: YamlNode | null | undefined) =>
    node?.range ? lineAt(source, offset + node.range[0]) : lineAt(source, offset);
  return { doc, lineOf };
}

// ---------------------------------------------------------------------------------------------------------------
// Routes and anchors the content defines

/** Every path a link in content may reach, each with the #anchors it defines (undefined: any anchor is unknown). */
export function knownPages(root: string): Map<string, Set<string> | undefined> {
  const pages = new Map<string, Set<string> | undefined>();
  const literalIds = (file: string) =>
    existsSync(file) ? [...readFileSync(file, 'utf8').matchAll(/\bid="([\w-]+)"/g)].map((m) => m[1]!) : [];
  const astroPage = (path: string) =>
    // Public pages live under src/pages/[...lang] (one route file for every language).
    [`src/pages/[...lang]${path === '/' ? '/index' : path}.astro`, `src/pages/[...lang]${path}/index.astro`]
      .map((file) => join(root, file))
      .find(existsSync);
  const mdxAnchors = (file: string) => {
    if (!existsSync(file)) return new Set<string>();
    const { body } = split(readFileSync(file, 'utf8'));
    const slugger = new GithubSlugger();
    const anchors = new Set(literalIds(file));
    let fenced = false;
    for (const line of body.split('\n')) {
      if (/^```/.test(line)) fenced = !fenced;
      const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
      if (heading) anchors.add(slugger.slug(heading[1]!.replace(/[*_`]|\[([^\]]*)\]\([^)]*\)/g, '$1')));
    }
    return anchors;
  };

  for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
    const content = (dir: string) => join(root, contentDir(lang), dir);
    const at = (path: string) => localePath(lang, path);
    const add = (path: string, ids: Iterable<string>) =>
      pages.set(at(path), new Set([...(pages.get(at(path)) ?? []), ...ids]));
    for (const route of routes) {
      if (route.entry || (lang !== 'en' && route.kind === 'admin')) continue;
      const file = astroPage(route.path);
      pages.set(at(route.path), new Set(file ? literalIds(file) : []));
    }
    add('/about-us/our-team', idsIn(join(root, 'src/content/team'), '.yaml'));
    add('/our-references', DIVISIONS);
    add('/our-services', SERVICES);
    for (const id of idsIn(content('blog'), '.mdx'))
      add(`/blog/${id}`, mdxAnchors(join(content('blog'), `${id}.mdx`)));
    for (const id of idsIn(content('news'), '.mdx'))
      add(`/news/${id}`, mdxAnchors(join(content('news'), `${id}.mdx`)));
    for (const sector of sectors)
      if (existsSync(join(content('sectors'), `${sector.art}.mdx`)))
        add(`/${sector.slug}`, mdxAnchors(join(content('sectors'), `${sector.art}.mdx`)));
    for (const initiative of initiatives)
      if (existsSync(join(content('initiatives'), `${initiative.slug}.mdx`)))
        add(
          `/initiatives/${initiative.slug}`,
          mdxAnchors(join(content('initiatives'), `${initiative.slug}.mdx`)),
        );
    for (const id of idsIn(content('legal'), '.mdx'))
      add(`/${id}`, mdxAnchors(join(content('legal'), `${id}.mdx`)));
    // Each project's case study (/our-references/<file name>) and the feeds.
    for (const id of idsIn(content('references'), '.yaml')) add(`/our-references/${id}`, []);
    for (const feed of ['/blog/rss.xml', '/news/rss.xml']) add(feed, []);
  }
  // Files served as they are (the brochure, icons).
  for (const file of walk(join(root, 'public')))
    pages.set(`/${relative(join(root, 'public'), file)}`, undefined);
  return pages;
}

/** Where a language's content entries live: src/content, and src/content/de for German. */
const contentDir = (lang: Lang) => (lang === 'en' ? 'src/content' : `src/content/${lang}`);
/** The language of a content or locale file, from its path. */
const langOfFile = (file: string): Lang =>
  /(^|\/)src\/(content|i18n\/locales)\/de\//.test(file) ? 'de' : 'en';

/** The page a content file becomes, for its own `#anchor` links. */
function pageOfFile(file: string): string | undefined {
  const match = /src\/content\/(?:de\/)?(blog|news|sectors|initiatives|legal)\/([\w-]+)\.mdx$/.exec(file);
  if (!match) return undefined;
  const [, collection, id] = match as unknown as [string, string, string];
  const at = (path: string) => localePath(langOfFile(file), path);
  if (collection === 'blog' || collection === 'news') return at(`/${collection}/${id}`);
  if (collection === 'sectors') return at(`/${sectors.find((s) => s.art === id)?.slug ?? id}`);
  if (collection === 'initiatives') return at(`/initiatives/${id}`);
  return at(`/${id}`);
}

function checkLinks(
  file: string,
  source: string,
  pages: Map<string, Set<string> | undefined>,
): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const origin = new URL(site.url).origin;
  const own = pageOfFile(file);
  const pattern = /\]\(\s*([^)\s]+)[^)]*\)|\bhref=["'{]+([^"'}]+)["'}]/g;
  for (const match of source.matchAll(pattern)) {
    let target = (match[1] ?? match[2])!;
    if (target.startsWith(origin)) target = target.slice(origin.length) || '/';
    if (!/^[/#]/.test(target) || target.startsWith('//')) continue;
    const line = lineAt(source, match.index);
    const [rawPath, anchor] = target.split('#') as [string, string | undefined];
    const path = rawPath === '' ? own : decodeURIComponent(rawPath.split('?')[0]!).replace(/(.)\/$/, '$1');
    if (path === undefined) {
      problems.push({
        file,
        line,
        rule: 'link',
        message: `"${target}" has no page to point into`,
        fix: 'write the full path, e.g. /blog/<id>#section',
      });
      continue;
    }
    if (!pages.has(path)) {
      problems.push({
        file,
        line,
        rule: 'link',
        message: `"${target}": no page ${path} is defined`,
        fix: 'link a route of src/routes.ts, /blog/<id>, /news/<id> or /our-references/<id> that exists (German: /de/…)',
      });
      continue;
    }
    const german = localePath('de', path);
    if (langOfFile(file) === 'de' && german !== path && !path.startsWith('/de') && pages.has(german)) {
      problems.push({
        file,
        line,
        rule: 'link',
        message: `"${target}" leads a German reader to the English page`,
        fix: `link the German page ${german}${anchor ? '#<its anchor>' : ''}`,
      });
      continue;
    }
    const anchors = pages.get(path);
    if (anchor && !anchors?.has(anchor)) {
      const known = anchors && anchors.size > 0 ? [...anchors].slice(0, 8).join(', ') : 'none known';
      problems.push({
        file,
        line,
        rule: 'link',
        message: `"${target}": ${path} has no #${anchor}`,
        fix: `use an anchor the page defines (${known}) or link the page without one`,
      });
    }
  }
  return problems;
}

/** Each article's and news item's title by its page (`/blog/<id>`, `/de/news/<id>`), from its front matter. */
function articleTitles(root: string): Map<string, string> {
  const titles = new Map<string, string>();
  for (const lang of ['en', 'de'] as const satisfies readonly Lang[])
    for (const collection of ['blog', 'news']) {
      const dir = join(root, contentDir(lang), collection);
      for (const id of idsIn(dir, '.mdx')) {
        const title: unknown = parseDocument(split(readFileSync(join(dir, `${id}.mdx`), 'utf8')).yaml).get(
          'title',
        );
        if (typeof title === 'string') titles.set(localePath(lang, `/${collection}/${id}`), title);
      }
    }
  return titles;
}

/** A link introduced as an article: "our article [Title](/blog/<id>)", "unser Artikel […](/de/blog/<id>)". */
const CITED_ARTICLE = /\b(?:article|Artikel)\s+\[([^\]]+)\]\(\s*(\/(?:de\/)?(?:blog|news)\/[\w-]+)\/?\s*\)/gi;

/**
 * A link that names an article as such carries the article's title, whole or up to its colon: the reader
 * looks for those words on the page the link opens, and a title changed in the article alone would leave the
 * link citing one that no longer exists. A link to no article is {@link checkLinks}' to report.
 */
function checkCitedTitles(file: string, source: string, titles: Map<string, string>): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const match of source.matchAll(CITED_ARTICLE)) {
    const [, text, path] = match as unknown as [string, string, string];
    const title = titles.get(path);
    const short = title?.split(':')[0]!.trim();
    if (title === undefined || text === title || text === short) continue;
    problems.push({
      file,
      line: lineAt(source, match.index),
      rule: 'link',
      message: `"${text}" cites ${path}, whose title is "${title}"`,
      fix: short === title ? `write "${title}"` : `write "${title}" or "${short}"`,
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Front matter and YAML: sources, bylines, alt text

const IMAGE_PATH = /\.(svg|png|jpe?g|webp|avif|gif)$/i;
const VAGUE_ALT = /^(image|picture|photo|drawing|illustration|figure|graphic|img)\s*\d*$/i;

function checkAlt(
  file: string,
  lineOf: (node: YamlNode | null | undefined) => number,
  node: unknown,
  out: ContentProblem[],
) {
  if (isSeq(node)) for (const item of node.items) checkAlt(file, lineOf, item, out);
  if (!isMap(node)) return;
  const src = node.get('src', true);
  if (isScalar(src) && typeof src.value === 'string' && IMAGE_PATH.test(src.value)) {
    const alt = node.get('alt', true);
    const text = isScalar(alt) && typeof alt.value === 'string' ? alt.value.trim() : '';
    if (text.length < 10 || VAGUE_ALT.test(text) || text === basename(src.value))
      out.push({
        file,
        line: lineOf(isScalar(alt) ? alt : src),
        rule: 'alt-text',
        message: `image ${src.value} has ${text ? `the alt text "${text}", which says nothing` : 'no alt text'}`,
        fix: 'add `alt:` with one sentence on what the image shows (at least 10 characters)',
      });
  }
  for (const pair of node.items) checkAlt(file, lineOf, pair.value, out);
}

function checkFrontMatter(file: string, source: string, root: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const isMdx = file.endsWith('.mdx');
  const { yaml, offset } = isMdx ? split(source) : { yaml: source, offset: 0 };
  if (!yaml) return problems;
  const { doc, lineOf } = yamlOf(yaml, offset, source);
  checkAlt(file, lineOf, doc.contents, problems);
  if (!isMap(doc.contents)) return problems;
  const front = doc.contents;
  const collection = /src\/content\/(?:de\/)?(blog|news)\//.exec(file)?.[1];
  if (!collection) return problems;

  const author = front.get('author', true);
  const authorId = isScalar(author) ? String(author.value) : '';
  if (!authorId || !existsSync(join(root, 'src/content/team', `${authorId}.yaml`)))
    problems.push({
      file,
      line: lineOf(author ?? front),
      rule: 'byline',
      message: authorId ? `author "${authorId}" is not on the team page` : 'the entry has no author',
      fix: `set author to the id of a file in src/content/team/ (or add src/content/team/${authorId || '<first-last>'}.yaml)`,
    });

  const keyOf = (name: string) =>
    front.items.find((pair) => isScalar(pair.key) && pair.key.value === name)?.key as YamlNode | undefined;
  const references = front.get('references', true);
  const items = isSeq(references) ? references.items : [];
  if (items.length < MIN_REFERENCES)
    problems.push({
      file,
      line: lineOf(keyOf('references') ?? keyOf('title')),
      rule: 'references',
      message: `the ${collection === 'news' ? 'news item' : 'article'} cites ${items.length} source${items.length === 1 ? '' : 's'}`,
      fix: `list at least ${MIN_REFERENCES} sources under references: (title, publisher, year, url of the cited document)`,
    });
  for (const item of items) {
    if (!isMap(item)) continue;
    for (const field of ['publisher', 'year'] as const) {
      const value = item.get(field, true);
      if (!isScalar(value) || String(value.value ?? '').trim() === '')
        problems.push({
          file,
          line: lineOf(item),
          rule: 'references',
          message: `a source has no ${field}`,
          fix: `add ${field}: to the source${field === 'year' ? ' (the year of the edition cited)' : ' (who issued the document)'}`,
        });
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// MDX bodies: images, contact details

function checkBody(file: string, source: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (!file.endsWith('.mdx')) return problems;
  const { body } = split(source);
  for (const match of body.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)) {
    if (match[1]!.trim().length < 10 || VAGUE_ALT.test(match[1]!.trim()))
      problems.push({
        file,
        line: lineAt(body, match.index),
        rule: 'alt-text',
        message: `image ${match[2]} has no useful alt text`,
        fix: 'write what the image shows between the brackets: ![Tablet press with the feed frame opened](…)',
      });
  }
  for (const match of body.matchAll(/<(img|Image|Picture)\b[^>]*>/g)) {
    const alt = /\balt=(?:"([^"]*)"|'([^']*)'|\{)/.exec(match[0]);
    if (!alt || (alt[1] ?? alt[2] ?? 'x').trim() === '')
      problems.push({
        file,
        line: lineAt(body, match.index),
        rule: 'alt-text',
        message: `<${match[1]}> has no alt text`,
        fix: 'add alt="…" with one sentence on what the image shows',
      });
  }
  return problems;
}

/** Contact details typed into content: the house-style rule for MDX plus the values of src/site.config.ts anywhere. */
function checkContact(file: string, source: string): ContentProblem[] {
  const problems: ContentProblem[] = checkFile(file, source)
    .filter((issue) => issue.rule === 'contact')
    .map((issue) => ({
      file,
      line: issue.line,
      rule: 'contact' as const,
      message: `"${issue.found}" is typed into the content`,
      fix: 'write <Email /> (or <Email to="careers" />) or <Phone />; they print what src/site.config.ts holds',
    }));
  const seen = new Set(problems.map((p) => p.line));
  const digits = site.phone.replace(/\D/g, '');
  const values = [site.email, site.careersEmail, site.address.street, site.registrationNumber];
  for (const [index, line] of source.split('\n').entries()) {
    const lineDigits = line.replace(/\D/g, '');
    const found =
      values.find((value) => line.includes(value)) ??
      (lineDigits.includes(digits.slice(3)) ? site.phone : undefined);
    if (found && !seen.has(index + 1))
      problems.push({
        file,
        line: index + 1,
        rule: 'contact',
        message: `"${found}" is typed into the content`,
        fix: 'use <Email />, <Phone /> in MDX, or {{email}}-style values filled from src/site.config.ts in locale files',
      });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Spelling

/** The file with everything but its prose blanked (newlines kept), so cspell's offsets are the file's. */
function proseOnly(file: string, source: string): string {
  const keep = new Uint8Array(source.length);
  for (const [from, to] of proseRanges(file, source)) keep.fill(1, from, to);
  // Ids are not prose: `author: jelena-markovic`, `investment: 'under-5'`, `tags: [gmp, atex]`, `"id": "honesty"`.
  if (/\.(mdx|yaml)$/.test(file))
    for (const match of source.matchAll(
      /^(\s*(?:- )?[\w-]+:[ \t]+)([a-z0-9-]+|'[a-z0-9-]+'|"[a-z0-9-]+"|\[[a-z0-9, -]*\])[ \t]*$/gm,
    ))
      keep.fill(0, match.index + match[1]!.length, match.index + match[0].length);
  if (file.endsWith('.json'))
    for (const match of source.matchAll(/("(?:id|slug|anchor)":\s*)"[^"]*"/g))
      keep.fill(0, match.index + match[1]!.length, match.index + match[0].length);
  let out = '';
  for (let i = 0; i < source.length; i += 1) out += keep[i] || source[i] === '\n' ? source[i] : ' ';
  // JSX tags and {expressions} inside prose lines, and i18n {{placeholders}}, are not words; nor are the tag
  // and attribute names of a JSX element spread over lines, or the keys of an MDX file's `export const` data.
  const code =
    /<\/?[A-Za-z][^>\n]*>|\{\{?[^}\n]*\}?\}|<[A-Za-z][\w.]*|\b[\w-]+=(?=["'{])|^[ \t]+[A-Za-z_]\w*:(?=[ \t]|$)|^export (?:const|let) [\w$]+/gm;
  return out.replace(code, (text) => text.replace(/[^\n]/g, ' '));
}

async function checkSpelling(root: string, files: string[]): Promise<ContentProblem[]> {
  const settings = await readSettings(join(root, CSPELL_CONFIG));
  const problems: ContentProblem[] = [];
  for (const path of files) {
    const file = relative(root, path);
    const source = readFileSync(path, 'utf8');
    const text = proseOnly(file, source);
    // German files get de-DE and the German project words through the config's `overrides`.
    const german = langOfFile(file) === 'de';
    const result = await spellCheckDocument(
      { uri: pathToFileURL(path).href, text, languageId: 'plaintext', locale: german ? 'de-DE' : 'en-GB' },
      { generateSuggestions: true, numSuggestions: 3, noConfigSearch: true },
      settings,
    );
    for (const issue of result.issues) {
      const suggestions = (issue.suggestionsEx ?? []).map((s) => s.word).slice(0, 3);
      const words = german ? 'cspell-words-de.txt' : 'cspell-words.txt';
      problems.push({
        file,
        line: lineAt(source, issue.offset),
        rule: 'spelling',
        message: `"${issue.text}" is not in the ${german ? 'de-DE' : 'en-GB'} dictionary or the project's words`,
        fix: suggestions.length
          ? `write ${suggestions.map((s) => `"${s}"`).join(' or ')}, or add the word to ${words} if it is right`
          : `correct it, or add the word to ${words} if it is right (a name, a standard, a trade term)`,
      });
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// German: typography and missing translations

function checkGermanTypography(file: string, source: string): ContentProblem[] {
  return checkGermanFile(file, source).map((issue) => ({
    file,
    line: issue.line,
    rule: 'typography',
    message: `"${issue.found}" breaks the German house style (${issue.rule})`,
    fix: issue.fix,
  }));
}

/** The German glossary: the one name the site gives each thing, and the variants it replaces. */
export const GERMAN_GLOSSARY: readonly GlossaryTerm[] = glossary.terms;

/** Each variant of a German file that the glossary replaces, with the glossary's form. */
export function checkGermanGlossary(
  file: string,
  source: string,
  terms: readonly GlossaryTerm[] = GERMAN_GLOSSARY,
): ContentProblem[] {
  return checkGlossary(file, source, terms).map((issue) => ({
    file,
    line: issue.line,
    rule: 'glossary',
    message: `"${issue.found}" is not the glossary's term`,
    fix: `write "${issue.use}"${issue.note ? ` (${issue.note})` : ''}; the choices live in src/i18n/glossary-de.json`,
  }));
}

/** Collections whose entries each have a German twin in src/content/de/<collection> (tests/unit/content-parity.test.ts). */
export const TRANSLATED_COLLECTIONS = {
  blog: '.mdx',
  news: '.mdx',
  sectors: '.mdx',
  initiatives: '.mdx',
  legal: '.mdx',
  references: '.yaml',
  team: '.yaml',
} as const;

/** The keys of a locale file as dotted paths, with their values (arrays count as objects with index keys). */
function flatKeys(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      for (const [path, leaf] of flatKeys(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
  } else out.set(prefix, value);
  return out;
}

/** English entries and locale keys that have no German version; entries of the blog and news are notices. */
export function missingTranslations(root: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const [collection, ext] of Object.entries(TRANSLATED_COLLECTIONS)) {
    for (const id of idsIn(join(root, 'src/content', collection), ext)) {
      const twin = `src/content/de/${collection}/${id}${ext}`;
      const drafted =
        existsSync(join(root, twin)) && /^draft: true$/m.test(readFileSync(join(root, twin), 'utf8'));
      if (existsSync(join(root, twin)) && !drafted) continue;
      problems.push({
        file: `src/content/${collection}/${id}${ext}`,
        line: 1,
        rule: 'translation',
        message: drafted ? `the German version (${twin}) is a draft` : `no German version (${twin})`,
        fix: drafted
          ? 'finish the German text and set draft: false'
          : collection === 'blog'
            ? `write it: npm run new:article -- --lang de --from ${id}`
            : `write ${twin}: the same fields, text in German (docs/editing.md, "German")`,
        notice: collection === 'blog' || collection === 'news',
      });
    }
  }
  for (const name of idsIn(join(root, 'src/i18n/locales/en'), '.json')) {
    const english = flatKeys(
      JSON.parse(readFileSync(join(root, 'src/i18n/locales/en', `${name}.json`), 'utf8')),
    );
    const germanFile = `src/i18n/locales/de/${name}.json`;
    if (!existsSync(join(root, germanFile))) {
      problems.push({
        file: `src/i18n/locales/en/${name}.json`,
        line: 1,
        rule: 'translation',
        message: `no German resources (${germanFile})`,
        fix: `write ${germanFile} with every key of the English file`,
      });
      continue;
    }
    const source = readFileSync(join(root, germanFile), 'utf8');
    const german = flatKeys(JSON.parse(source));
    const lineOfKey = (key: string) => {
      const last = key.split('.').at(-1)!;
      const at = source.indexOf(`"${last}"`);
      return at === -1 ? 1 : lineAt(source, at);
    };
    for (const [key, value] of english) {
      const translated = german.get(key);
      if (!german.has(key))
        problems.push({
          file: germanFile,
          line: 1,
          rule: 'translation',
          message: `the key ${key} is missing`,
          fix: `add "${key}" with the German for ${JSON.stringify(value).slice(0, 60)}`,
        });
      else if (typeof value === 'string' && value.trim() !== '' && String(translated ?? '').trim() === '')
        problems.push({
          file: germanFile,
          line: lineOfKey(key),
          rule: 'translation',
          message: `the key ${key} is empty`,
          fix: 'write the German text',
        });
    }
    for (const key of german.keys())
      if (!english.has(key))
        problems.push({
          file: germanFile,
          line: lineOfKey(key),
          rule: 'translation',
          message: `the key ${key} is not in the English file`,
          fix: `remove it, or add it to src/i18n/locales/en/${name}.json`,
        });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------

/** The German content and locale files: src/content/de and src/i18n/locales/de. */
function germanFiles(root: string): string[] {
  return [...walk(join(root, 'src/content/de')), ...walk(join(root, 'src/i18n/locales/de'))]
    .filter((path) => /\.(mdx|yaml|json)$/.test(path))
    .sort();
}

/** The problems of one file that need no other file but the known pages: all rules but spelling and twins. */
function fileProblems(
  root: string,
  file: string,
  source: string,
  pages: Map<string, Set<string> | undefined>,
  titles: Map<string, string>,
): ContentProblem[] {
  return [
    ...checkContact(file, source),
    ...checkFrontMatter(file, source, root),
    ...checkBody(file, source),
    ...checkLinks(file, source, pages),
    ...checkCitedTitles(file, source, titles),
    ...(langOfFile(file) === 'de'
      ? [...checkGermanTypography(file, source), ...checkGermanGlossary(file, source)]
      : []),
  ];
}

const byPlace = (a: ContentProblem, b: ContentProblem) => a.file.localeCompare(b.file) || a.line - b.line;

/** Every content problem under `root` (the project, or a copy of its src/content, locales and cspell files). */
export async function lintContent(root: string): Promise<ContentProblem[]> {
  const german = germanFiles(root);
  const english = [...walk(join(root, 'src/content')), ...walk(join(root, 'src/i18n/locales/en'))]
    .filter((path) => /\.(mdx|yaml|json)$/.test(path) && !german.includes(path))
    .sort();
  const pages = knownPages(root);
  const titles = articleTitles(root);
  const problems: ContentProblem[] = [];
  for (const path of [...english, ...german])
    problems.push(...fileProblems(root, relative(root, path), readFileSync(path, 'utf8'), pages, titles));
  problems.push(...(await checkSpelling(root, [...styledFiles(root), ...german])));
  problems.push(...missingTranslations(root));
  return problems.sort(byPlace);
}

/**
 * What {@link lintContent} reports for one file under `root` (a path relative to it): every rule, spelling and
 * a missing German twin included. The admin's Content tab lints a draft this way, on a copy of its branch.
 */
export async function lintFile(root: string, file: string): Promise<ContentProblem[]> {
  const path = join(root, file);
  const spelled = langOfFile(file) === 'de' || styledFiles(root).includes(path);
  return [
    ...fileProblems(root, file, readFileSync(path, 'utf8'), knownPages(root), articleTitles(root)),
    ...(spelled ? await checkSpelling(root, [path]) : []),
    ...missingTranslations(root).filter((problem) => problem.file === file),
  ].sort(byPlace);
}

export const formatProblem = (p: ContentProblem) =>
  `${p.file}:${p.line}  ${p.notice ? 'notice' : p.rule}  ${p.message} → ${p.fix}`;
