/**
 * i18next set up for build-time rendering. Resources are read through a small backend over the locale
 * files, so adding `locales/de/*.json` adds a language without touching code.
 */
import { frozen } from '../lib/frozen.ts';
import { languages } from './lang.ts';
import i18next, { type BackendModule, type ReadCallback, type ResourceKey, type TFunction } from 'i18next';

const loaders = import.meta.glob<{ default: ResourceKey }>('./locales/*/*.json');

export const defaultLanguage = 'en';
export const supportedLanguages = languages;

/** Every namespace the default language ships; a new JSON file becomes a namespace by existing. */
export const namespaces = Object.keys(loaders)
  .filter((file) => file.startsWith(`./locales/${defaultLanguage}/`))
  .map((file) => file.slice(file.lastIndexOf('/') + 1, -'.json'.length));

/** SPEC §7: 10 parallel reads, up to 5 retries, 350 ms first retry delay that doubles each time. */
export const loaderOptions = { maxParallelReads: 10, maxRetries: 5, retryTimeout: 350 } as const;

export const localeFileBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No ${namespace} resources for ${language}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
    );
  },
};

const ready = new Map<string, Promise<TFunction>>();

type Plain = string | number | boolean | null | undefined;

/** Options made of plain values only (a count, a name to interpolate, `returnObjects`) can key a cache. */
const plainOptions = (options: unknown): options is Record<string, Plain> | undefined =>
  options === undefined ||
  (typeof options === 'object' &&
    options !== null &&
    Object.values(options).every(
      (value) => value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value),
    ));

/**
 * A translation function that answers a call it has answered before from memory. A build renders the same
 * header, footer and forms on every page, and i18next resolves each call anew (key and namespace splitting,
 * fallbacks, and every nested key of a `returnObjects` call): at 1,000 extra articles that was 2–4 s of the
 * build (README, "Build at scale"). The resources do not change while the module lives, so the same key with
 * the same plain options always has the same answer. Objects are frozen before they are shared, so a page
 * that changed one would fail the build instead of changing the next page's copy.
 */
function remembering(t: TFunction): TFunction {
  // Most calls name a key and nothing else: those are kept by the key itself, the rest by key and options.
  const byKey = new Map<string, unknown>();
  const byCall = new Map<string, unknown>();
  const call = t as unknown as (...args: unknown[]) => unknown;
  const remembered = (...args: unknown[]) => {
    const [key, options] = args;
    if (args.length > 2 || !plainOptions(options)) return call(...args);
    const bare = options === undefined && typeof key === 'string';
    const answers = bare ? byKey : byCall;
    const id = bare ? key : JSON.stringify([key, options]);
    if (answers.has(id)) return answers.get(id);
    const answer = frozen(call(key, options));
    answers.set(id, answer);
    return answer;
  };
  return remembered as unknown as TFunction;
}

/** The translation function for a language, initialised once per build. */
export function getT(language: string = defaultLanguage): Promise<TFunction> {
  let t = ready.get(language);
  if (!t) {
    const instance = i18next.createInstance();
    t = instance
      .use(localeFileBackend)
      .init({
        lng: language,
        fallbackLng: defaultLanguage,
        supportedLngs: [...supportedLanguages],
        ns: namespaces,
        defaultNS: 'common',
        interpolation: { escapeValue: false },
        returnNull: false,
        ...loaderOptions,
      })
      .then(remembering);
    ready.set(language, t);
  }
  return t;
}
