import { readdirSync, readFileSync } from 'node:fs';
import i18next from 'i18next';
import { describe, expect, test } from 'vitest';
import { getT, loaderOptions, localeFileBackend, namespaces } from '../../src/i18n/index.ts';
import { compareKeys, flattenKeys } from '../../src/lib/i18n-keys.ts';
import { navigation, routes, type NavItem } from '../../src/routes.ts';

const localesDir = new URL('../../src/i18n/locales/', import.meta.url);
const locales = readdirSync(localesDir);
const read = (locale: string, namespace: string) =>
  JSON.parse(readFileSync(new URL(`${locale}/${namespace}.json`, localesDir), 'utf8')) as unknown;

describe('compareKeys', () => {
  test('reports keys missing from the other locale and keys only it has', () => {
    expect(compareKeys({ a: 'x', b: { c: 'y' } }, { a: 'x', d: 'z' })).toEqual({
      missing: ['b.c'],
      extra: ['d'],
    });
  });
  test('finds nothing when the key sets match', () => {
    expect(compareKeys({ a: { b: 'x' } }, { a: { b: 'y' } })).toEqual({ missing: [], extra: [] });
  });
});

describe('locales', () => {
  test('English ships the sections SPEC names plus nav, footer and common', () => {
    for (const section of [
      'home',
      'who_are_we',
      'services',
      'team',
      'career',
      'vision',
      'policy',
      'nav',
      'footer',
      'common',
    ]) {
      expect(namespaces).toContain(section);
    }
  });

  for (const locale of locales.filter((l) => l !== 'en')) {
    test(`${locale} has exactly the keys English has`, () => {
      for (const namespace of namespaces) {
        expect(
          compareKeys(read('en', namespace), read(locale, namespace)),
          `${locale}/${namespace}.json`,
        ).toEqual({
          missing: [],
          extra: [],
        });
      }
    });
  }

  for (const locale of locales) {
    test(`no ${locale} message is empty`, () => {
      for (const namespace of namespaces) {
        const resource = read(locale, namespace);
        for (const key of flattenKeys(resource)) {
          const value = key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resource);
          expect(typeof value === 'string' && value.trim().length > 0, `${locale}/${namespace}:${key}`).toBe(
            true,
          );
        }
      }
    });
  }

  for (const locale of locales) {
    test(`${locale}: no two header controls share an accessible name`, () => {
      // The Divisions link and the About us submenu of the same six sectors once read alike in German.
      const nav = read(locale, 'nav');
      const word = (key: string) =>
        key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], nav);
      const labels = (items: NavItem[]): string[] =>
        items.flatMap((item) => ['children' in item ? labels(item.children) : [], item.label].flat());
      const names = labels(navigation).map((key) => String(word(key)).toLocaleLowerCase(locale));
      expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    });
  }

  test('every route not made from a content entry has a title, description, eyebrow and intro', async () => {
    const t = await getT();
    for (const route of routes.filter((r) => !r.entry)) {
      for (const field of ['title', 'description', 'eyebrow', 'sub_text']) {
        const key = `${route.copy}.${field}`;
        expect(t(key), key).not.toBe(key.split(':')[1]);
      }
    }
  });
});

describe('the locale backend', () => {
  test('uses SPEC’s loader settings: 10 parallel reads, 5 retries, 350 ms first delay', () => {
    expect(loaderOptions).toEqual({ maxParallelReads: 10, maxRetries: 5, retryTimeout: 350 });
  });

  test('reads a namespace and refuses one of a language the site does not publish, without retrying', async () => {
    const read = (lng: string, ns: string) =>
      new Promise<{ error: Error | null; retry?: boolean; data?: unknown }>((resolve) =>
        localeFileBackend.read(lng, ns, (error, data) =>
          resolve({
            error: error as Error | null,
            retry: typeof data === 'boolean' ? data : undefined,
            data,
          }),
        ),
      );
    const nav = await read('en', 'nav');
    expect(nav.error).toBeNull();
    expect((nav.data as { about_us: string }).about_us).toBe('About us');
    const missing = await read('fr', 'nav');
    expect(missing.error).toBeInstanceOf(Error);
    expect(missing.retry).toBe(false);
  });
});

describe('getT', () => {
  test('answers a repeated call from memory with what i18next answers, per key and per option', async () => {
    const t = await getT('de');
    const plain = i18next.createInstance();
    await plain.use(localeFileBackend).init({
      lng: 'de',
      fallbackLng: 'en',
      ns: namespaces,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    for (const count of [1, 7, 1, 7])
      expect(t('blog:reading_time', { count })).toBe(plain.t('blog:reading_time', { count }));
    expect(t('nav:about_us')).toBe(plain.t('nav:about_us'));
    expect(t('forms:errors', { returnObjects: true })).toEqual(
      plain.t('forms:errors', { returnObjects: true }),
    );
  });

  test('shares an object answer frozen, so a page that changed it would fail instead of the next page', async () => {
    const t = await getT();
    const errors = t('forms:errors', { returnObjects: true }) as Record<string, unknown>;
    expect(t('forms:errors', { returnObjects: true })).toBe(errors);
    expect(Object.isFrozen(errors)).toBe(true);
    expect(() => {
      errors.required = 'changed';
    }).toThrow(TypeError);
  });
});
