/**
 * The interface language. `lng` holds the active code (en, de; default en); `selectedLanguage` is the
 * label the header shows. Only English is active: choosing it persists the choice and reloads the page.
 */
import { atom } from 'nanostores';
import {
  activeLanguages,
  languageLabel,
  languageLabels,
  toLanguageCode,
  type LanguageCode,
  type LanguageLabel,
} from '../lib/language.ts';

export { activeLanguages, languageLabel, toLanguageCode } from '../lib/language.ts';
export type { LanguageCode, LanguageLabel } from '../lib/language.ts';

export const $lng = atom<LanguageCode>('en');
export const $selectedLanguage = atom<LanguageLabel>('ENGLISH');

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): KeyValueStorage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Reads `lng` and `selectedLanguage` from storage into the store. */
export function loadLanguage(storage: KeyValueStorage | undefined = browserStorage()): void {
  $lng.set(toLanguageCode(storage?.getItem('lng')));
  $selectedLanguage.set(languageLabel(storage?.getItem('selectedLanguage')));
}

interface ChooseOptions {
  storage?: KeyValueStorage | undefined;
  /** @default location.reload */
  reload?: () => void;
}

/**
 * Switches the interface language. Only active languages do anything: the code is stored under `lng`,
 * the shown label updates (subscribers such as the header hear it), and the page reloads.
 * @returns whether the language was applied
 */
export function chooseLanguage(code: LanguageCode, options: ChooseOptions = {}): boolean {
  if (!activeLanguages.includes(code)) return false;
  const storage = 'storage' in options ? options.storage : browserStorage();
  storage?.setItem('lng', code);
  storage?.setItem('selectedLanguage', code);
  $lng.set(code);
  $selectedLanguage.set(languageLabels[code]);
  (options.reload ?? (() => window.location.reload()))();
  return true;
}
