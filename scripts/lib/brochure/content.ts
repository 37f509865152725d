/**
 * Everything the brochure says, in one language, read from the site's own sources without Astro: company
 * facts (src/site.config.ts), divisions (src/content/sectors front matter), references
 * (src/content/references/*.yaml), service names and page copy (src/i18n/locales/<lang>). The German
 * brochure reads the German twins (src/content/de/<collection>/<same file>) and the German resources; an
 * entry without a twin, or a key without a German value, is taken from English and listed in `fallbacks`.
 * A missing field stops the script with the file and the field, like a content collection would.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { parse } from 'yaml';
import { DIVISIONS, SERVICES, type Division, type Service } from '../../../src/content/constants.ts';
import { defaultLang, type Lang } from '../../../src/i18n/lang.ts';
import { site } from '../../../src/site.config.ts';
import { frontMatterOf, type FrontMatter } from '../front-matter.ts';

export interface BrochureDivision {
  id: Division;
  name: string;
  summary: string;
  highlights: string[];
  referenceCount: number;
}

export interface BrochureReference {
  id: string;
  title: string;
  description: string;
  division: Division;
  divisionName: string;
  year: number;
  durationMonths: number;
  services: string[];
  outcome: string;
  client: string;
  country: string;
  deliveredUnderBrand: boolean;
  featured: boolean;
}

export interface BrochureService {
  id: Service;
  name: string;
  text: string;
  deliverables: string;
  referenceCount: number;
}

export interface BrochureInitiative {
  id: string;
  name: string;
  descriptor: string;
}

export interface BrochureContent {
  lang: Lang;
  site: typeof site;
  t: TFunction;
  /** Content files of the language that do not exist yet, read in English instead (relative paths). */
  fallbacks: string[];
  /** The newest article or news date: identical content gives an identical edition, and identical bytes. */
  edition: Date;
  tagline: string;
  organization: string[];
  history: { year: string; text: string }[];
  services: BrochureService[];
  divisions: BrochureDivision[];
  /** One per division: `featured: true` where an entry says so, otherwise the newest delivered under the brand. */
  selected: BrochureReference[];
  portfolio: { projects: number; countries: number };
  /** Initiatives by their `order`; a title "Name: what it is" gives the name and the descriptor. */
  initiatives: BrochureInitiative[];
}

type Record_ = Record<string, unknown>;

function fail(file: string, field: string, expected: string): never {
  throw new Error(`brochure: ${file} → ${field}: expected ${expected}`);
}

function text(data: Record_, field: string, file: string): string {
  const value = data[field];
  if (typeof value !== 'string' || !value.trim()) fail(file, field, 'a non-empty string');
  return value.trim();
}

function frontMatter(file: string): FrontMatter {
  return frontMatterOf(file) ?? fail(file, 'front matter', 'a --- block at the top');
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record_;

/** Every namespace of a language's locale files (src/i18n/locales/<lang>/*.json); none for a new language. */
function localeResources(root: string, lang: Lang): Record<string, Record_> {
  const dir = join(root, 'src', 'i18n', 'locales', lang);
  const resources: Record<string, Record_> = {};
  if (!existsSync(dir)) return resources;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    resources[file.slice(0, -'.json'.length)] = readJson(join(dir, file));
  }
  return resources;
}

/**
 * The interface copy through i18next, so plurals and interpolation work as on the pages; a key the language
 * lacks falls back to English, as getT does for the pages.
 */
async function translator(root: string, lang: Lang): Promise<TFunction> {
  const english = localeResources(root, defaultLang);
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: defaultLang,
    resources: {
      [defaultLang]: english,
      ...(lang !== defaultLang && { [lang]: localeResources(root, lang) }),
    },
    ns: Object.keys(english),
    defaultNS: 'brochure',
    interpolation: { escapeValue: false },
    returnNull: false,
    returnObjects: false,
  });
  return instance.t;
}

/**
 * Where an entry's text is in a language: `src/content/de/<collection>/<name>` when the German twin exists,
 * else the English file (noted in `fallbacks`).
 */
function contentFile(
  root: string,
  lang: Lang,
  collection: string,
  name: string,
  fallbacks: string[],
): string {
  const english = join(root, 'src', 'content', collection, name);
  if (lang === defaultLang) return english;
  const twin = join(root, 'src', 'content', lang, collection, name);
  if (existsSync(twin)) return twin;
  fallbacks.push(`src/content/${lang}/${collection}/${name}`);
  return english;
}

function loadDivision(file: string, id: Division): Omit<BrochureDivision, 'referenceCount'> {
  const data = frontMatter(file);
  // The division's short name is its eyebrow ("Pharma & life sciences"), as on the site.
  const name = data.eyebrow;
  const summary = data.summary;
  if (typeof name !== 'string' || !name.trim()) fail(file, 'eyebrow', 'the division name');
  if (typeof summary !== 'string' || !summary.trim()) fail(file, 'summary', 'a one-sentence summary');
  const raw = Array.isArray(data.highlights) ? (data.highlights as unknown[]) : [];
  // Highlights are short strings today; entries of { title, text } print their titles.
  const highlights = raw
    .map((h) => (typeof h === 'string' ? h : (h as Record_ | null)?.title))
    .filter((h): h is string => typeof h === 'string' && h.trim().length > 0);
  if (highlights.length === 0) fail(file, 'highlights', 'at least one highlight');
  return { id, name: name.trim(), summary: summary.trim(), highlights };
}

function loadReference(file: string, divisionName: (d: Division) => string): BrochureReference {
  const data = (parse(readFileSync(file, 'utf8')) ?? {}) as Record_;
  const division = data.division as Division;
  if (!DIVISIONS.includes(division)) fail(file, 'division', `one of ${DIVISIONS.join(', ')}`);
  for (const field of ['year', 'durationMonths']) {
    if (!Number.isInteger(data[field])) fail(file, field, 'a whole number');
  }
  const services = data.services;
  if (!Array.isArray(services) || services.length === 0) fail(file, 'services', 'a list of service ids');
  if (typeof data.deliveredUnderBrand !== 'boolean') fail(file, 'deliveredUnderBrand', 'true or false');
  return {
    id: file.slice(file.lastIndexOf('/') + 1, -'.yaml'.length),
    title: text(data, 'title', file),
    description: text(data, 'description', file),
    division,
    divisionName: divisionName(division),
    year: data.year as number,
    durationMonths: data.durationMonths as number,
    services: services as string[],
    outcome: text(data, 'outcome', file),
    client: text(data, 'client', file),
    country: text(data, 'country', file),
    deliveredUnderBrand: data.deliveredUnderBrand,
    featured: data.featured === true,
  };
}

/** The newest `date` or `updated` among published articles and news. */
function newestContentDate(root: string): Date {
  let newest = new Date(Date.UTC(site.established, 0, 1));
  for (const collection of ['blog', 'news']) {
    const dir = join(root, 'src', 'content', collection);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.mdx'))) {
      const data = frontMatter(join(dir, file));
      if (data.draft === true) continue;
      for (const value of [data.date, data.updated]) {
        const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
        if (date && !Number.isNaN(date.getTime()) && date > newest) newest = date;
      }
    }
  }
  return newest;
}

function loadInitiatives(root: string, lang: Lang, fallbacks: string[]): BrochureInitiative[] {
  const dir = join(root, 'src', 'content', 'initiatives');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mdx'))
    .map((f) => {
      const file = contentFile(root, lang, 'initiatives', f, fallbacks);
      const data = frontMatter(file);
      const [name, descriptor = ''] = text(data, 'title', file).split(/:\s+/, 2) as [string, string?];
      const what = descriptor.charAt(0).toUpperCase() + descriptor.slice(1);
      return { id: f.slice(0, -'.mdx'.length), name, descriptor: what, order: Number(data.order ?? 99) };
    })
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
    .map(({ id, name, descriptor }) => ({ id, name, descriptor }));
}

/** Reads the brochure's content in a language from the repository at `root`. */
export async function loadBrochureContent(root: string, lang: Lang = defaultLang): Promise<BrochureContent> {
  const localesDir = join(root, 'src', 'i18n', 'locales', 'en');
  const t = await translator(root, lang);
  const fallbacks: string[] = [];

  const divisions = DIVISIONS.map((id) =>
    loadDivision(contentFile(root, lang, 'sectors', `${id}.mdx`, fallbacks), id),
  );
  const nameOf = (id: Division) => divisions.find((d) => d.id === id)!.name;
  const referenceDir = join(root, 'src', 'content', 'references');
  const references = readdirSync(referenceDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => loadReference(contentFile(root, lang, 'references', f, fallbacks), nameOf));

  const serviceName = (id: string) => {
    const name = t(`references:services.${id}`);
    if (name === `services.${id}`)
      fail(join(localesDir, 'references.json'), `services.${id}`, 'a service name');
    return name;
  };
  const services = SERVICES.map((id) => ({
    id,
    name: serviceName(id),
    text: t(`services.items.${id}.text`),
    deliverables: t(`services.items.${id}.deliverables`),
    referenceCount: references.filter((r) => r.services.includes(id)).length,
  }));

  const selected = DIVISIONS.map((division) => {
    const own = references.filter((r) => r.division === division);
    const featured = own.filter((r) => r.featured);
    const pool = featured.length ? featured : own.filter((r) => r.deliveredUnderBrand);
    const pick = [...(pool.length ? pool : own)].sort(
      (a, b) => b.year - a.year || a.id.localeCompare(b.id),
    )[0];
    if (!pick) fail(referenceDir, division, 'at least one reference');
    return { ...pick, services: pick.services.map(serviceName) };
  });

  const organization = t('who_are_we:organization.paragraphs', { returnObjects: true });
  const history = t('who_are_we:history.items', { returnObjects: true });
  if (!Array.isArray(organization))
    fail(join(localesDir, 'who_are_we.json'), 'organization.paragraphs', 'a list');
  if (!Array.isArray(history)) fail(join(localesDir, 'who_are_we.json'), 'history.items', 'a list');

  return {
    lang,
    site,
    t,
    fallbacks,
    edition: newestContentDate(root),
    tagline: t('footer:tagline'),
    organization: organization as string[],
    history: history as { year: string; text: string }[],
    services,
    divisions: divisions.map((d) => ({
      ...d,
      referenceCount: references.filter((r) => r.division === d.id).length,
    })),
    selected,
    portfolio: {
      projects: references.length,
      countries: new Set(references.map((r) => r.country)).size,
    },
    initiatives: loadInitiatives(root, lang, fallbacks),
  };
}
