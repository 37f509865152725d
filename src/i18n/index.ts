/**
 * i18next set up for build-time rendering. Resources are read through a small backend over the locale
 * files, so adding `locales/de/*.json` adds a language without touching code.
 */
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

/** The translation function for a language, initialised once per build. */
export function getT(language: string = defaultLanguage): Promise<TFunction> {
  let t = ready.get(language);
  if (!t) {
    const instance = i18next.createInstance();
    t = instance.use(localeFileBackend).init({
      lng: language,
      fallbackLng: defaultLanguage,
      supportedLngs: [...supportedLanguages],
      ns: namespaces,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      ...loaderOptions,
    });
    ready.set(language, t);
  }
  return t;
}
