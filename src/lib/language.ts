/**
 * The interface languages and their labels, without the store (src/stores/language.ts): the header's
 * language button (LanguagePicker.astro) names the page's language with them.
 */
export type LanguageCode = 'en' | 'de';
export type LanguageLabel = 'ENGLISH' | 'DEUTSCH';

export const activeLanguages: readonly LanguageCode[] = ['en', 'de'];

export const languageLabels: Readonly<Record<LanguageCode, LanguageLabel>> = { en: 'ENGLISH', de: 'DEUTSCH' };

/** A stored value as a language code; anything unknown is the default, English. */
export function toLanguageCode(value: unknown): LanguageCode {
  return value === 'de' ? 'de' : 'en';
}

/**
 * The label for a stored `selectedLanguage` value.
 * @example languageLabel('de') // 'DEUTSCH'; languageLabel(null) // 'ENGLISH'
 */
export function languageLabel(value: unknown): LanguageLabel {
  return value === 'en' || value === 'de' ? languageLabels[value] : 'ENGLISH';
}
