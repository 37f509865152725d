import { beforeEach, describe, expect, test, vi } from 'vitest';
import {
  $lng,
  $selectedLanguage,
  chooseLanguage,
  languageLabel,
  loadLanguage,
  toLanguageCode,
  type LanguageCode,
} from '../../src/stores/language.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

beforeEach(() => {
  $lng.set('en');
  $selectedLanguage.set('ENGLISH');
});

describe('toLanguageCode', () => {
  test('defaults to en for missing or unknown values', () => {
    expect(toLanguageCode(null)).toBe('en');
    expect(toLanguageCode('fr')).toBe('en');
  });
  test('keeps de', () => {
    expect(toLanguageCode('de')).toBe('de');
  });
});

describe('languageLabel', () => {
  test('maps en to ENGLISH and de to DEUTSCH', () => {
    expect(languageLabel('en')).toBe('ENGLISH');
    expect(languageLabel('de')).toBe('DEUTSCH');
  });
  test('falls back to ENGLISH', () => {
    expect(languageLabel(undefined)).toBe('ENGLISH');
    expect(languageLabel('ENGLISH')).toBe('ENGLISH');
    expect(languageLabel('sr')).toBe('ENGLISH');
  });
});

describe('loadLanguage', () => {
  test('reads lng and selectedLanguage from storage', () => {
    loadLanguage(memoryStorage({ lng: 'de', selectedLanguage: 'de' }));
    expect($lng.get()).toBe('de');
    expect($selectedLanguage.get()).toBe('DEUTSCH');
  });
  test('uses the defaults when storage is empty or unavailable', () => {
    $lng.set('de');
    loadLanguage(memoryStorage());
    expect($lng.get()).toBe('en');
    loadLanguage(undefined);
    expect($selectedLanguage.get()).toBe('ENGLISH');
  });
});

describe('chooseLanguage', () => {
  test('stores en, shows ENGLISH, notifies subscribers and reloads', () => {
    const storage = memoryStorage({ lng: 'de', selectedLanguage: 'de' });
    $selectedLanguage.set('DEUTSCH');
    const heard: string[] = [];
    const stop = $selectedLanguage.listen((label) => heard.push(label));
    const reload = vi.fn();

    expect(chooseLanguage('en', { storage, go: reload })).toBe(true);

    expect(storage.data.get('lng')).toBe('en');
    expect($selectedLanguage.get()).toBe('ENGLISH');
    expect(heard).toEqual(['ENGLISH']);
    expect(reload).toHaveBeenCalledOnce();
    stop();
  });

  test('stores de and opens the page given in German', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(chooseLanguage('de', { storage, go: reload, open: '/de/our-services' })).toBe(true);
    expect(storage.data.get('lng')).toBe('de');
    expect($selectedLanguage.get()).toBe('DEUTSCH');
    expect(reload).toHaveBeenCalledExactlyOnceWith('/de/our-services');
  });

  test('does nothing for a language that is not active yet', () => {
    $lng.set('en');
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(chooseLanguage('sr' as LanguageCode, { storage, go: reload })).toBe(false);
    expect(storage.data.size).toBe(0);
    expect($lng.get()).toBe('en');
    expect(reload).not.toHaveBeenCalled();
  });
});
