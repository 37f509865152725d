/**
 * What the checks of the German pages share, read from the source folders the way the build reads them: the
 * German routes (src/routes.ts's `routesIn`), the German title of a route, and the twins the translators have
 * not delivered yet. Both lists follow the content, so the tests tighten themselves as translations land.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isIndexable, routes, routesIn, type SiteRoute } from '../../src/routes.ts';
import { message, routeTitle } from './fixtures.ts';

type Entry = NonNullable<SiteRoute['entry']>;
type Messages = Record<string, unknown>;

const extension: Record<Entry['collection'], string> = {
  blog: 'mdx',
  news: 'mdx',
  sectors: 'mdx',
  initiatives: 'mdx',
  legal: 'mdx',
  references: 'yaml',
};

const germanFile = (entry: Entry) =>
  `src/content/de/${entry.collection}/${entry.id}.${extension[entry.collection]}`;

/** Whether an entry has its German twin (src/content/de/<collection>/<id>). */
export const hasGermanEntry = (entry: Entry) => existsSync(germanFile(entry));

/** Every German route the build makes, with its /de path. */
export const germanRoutes = routesIn('de', hasGermanEntry);

const germanResources = new Map<string, Messages | undefined>();

/** A German message by `namespace:dotted.key`, or undefined while the translators have not delivered it. */
export function germanMessage(key: string): string | undefined {
  const [namespace, path] = key.split(':') as [string, string];
  if (!germanResources.has(namespace)) {
    const file = `src/i18n/locales/de/${namespace}.json`;
    germanResources.set(
      namespace,
      existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Messages) : undefined,
    );
  }
  const value = path
    .split('.')
    .reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], germanResources.get(namespace));
  return typeof value === 'string' ? value : undefined;
}

/** The title a German route's page shows: its German entry or record, the English record while it is missing. */
export function germanTitle(route: SiteRoute): string {
  if (!route.entry) return germanMessage(`${route.copy}.title`) ?? message(`${route.copy}.title`);
  const source = readFileSync(germanFile(route.entry), 'utf8');
  const data = parse(
    route.entry.collection === 'references' ? source : (source.split(/^---$/m)[1] ?? ''),
  ) as {
    title: string;
  };
  return data.title;
}

/**
 * Indexable English pages whose German twin the translators have not delivered yet: an entry page without its
 * German entry (no German page is built), or a page whose title has no German record yet (its German page still
 * reads in English). The German checks skip exactly these; the list empties itself as translations land.
 */
export const UNDELIVERED_TWINS: ReadonlySet<string> = new Set(
  routes
    .filter((route) => isIndexable(route.path))
    .filter((route) =>
      route.entry ? !hasGermanEntry(route.entry) : germanMessage(`${route.copy}.title`) === undefined,
    )
    .map((route) => route.path),
);

/** The English title of a route, for comparing with the German one. */
export const englishTitle = (route: SiteRoute) => routeTitle(route);

/**
 * The English interface strings German pages must not show once their German versions exist: navigation,
 * footer, cookie banner and form labels, each with its German value.
 */
export function interfaceStrings(): Array<{ key: string; english: string; german: string }> {
  const sources: Array<[string, string]> = [
    ['nav', ''],
    ['footer', ''],
    ['common', 'cookie_banner'],
    ['forms', 'contact.labels'],
    ['forms', 'meeting.labels'],
    ['forms', 'newsletter'],
  ];
  const strings: Array<{ key: string; english: string; german: string }> = [];
  for (const [namespace, section] of sources) {
    const english = JSON.parse(readFileSync(`src/i18n/locales/en/${namespace}.json`, 'utf8')) as Messages;
    const root = section
      .split('.')
      .filter(Boolean)
      .reduce<unknown>((node, part) => (node as Messages)[part], english);
    const walk = (node: unknown, path: string) => {
      if (typeof node === 'string') {
        const key = `${namespace}:${path}`;
        const german = germanMessage(key);
        // Names that read the same in both languages (Blog, Newsletter, Korvel on LinkedIn) are no finding.
        if (german !== undefined && german !== node && !node.includes('{{'))
          strings.push({ key, english: node, german });
      } else if (node && typeof node === 'object') {
        for (const [part, child] of Object.entries(node)) walk(child, path ? `${path}.${part}` : part);
      }
    };
    walk(root, section);
  }
  return strings;
}
