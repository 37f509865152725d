/**
 * The interface language. `lng` holds the chosen code (en, de; default en); `selectedLanguage` the code
 * SPEC's label reads. Choosing a language persists the choice and opens the page in it (the header's
 * dialog passes this page's twin) or, without one, reloads the page.
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
  /** The page to open in the chosen language; without it the page reloads. */
  open?: string;
  /** How the page opens. @default location.assign(open), or location.reload() without one */
  go?: (open: string | undefined) => void;
}

/**
 * Switches the interface language. Only active languages do anything: the code is stored under `lng`,
 * the shown label updates (subscribers such as the header hear it), and the page in that language opens.
 * @returns whether the language was applied
 */
export function chooseLanguage(code: LanguageCode, options: ChooseOptions = {}): boolean {
  if (!activeLanguages.includes(code)) return false;
  const storage = 'storage' in options ? options.storage : browserStorage();
  storage?.setItem('lng', code);
  storage?.setItem('selectedLanguage', code);
  $lng.set(code);
  $selectedLanguage.set(languageLabels[code]);
  const go = options.go ?? ((href) => (href ? window.location.assign(href) : window.location.reload()));
  go(options.open);
  return true;
}
