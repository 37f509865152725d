/**
 * The public forms' words on the server: `forms:errors` of the locale files, the same words the pages hand their
 * form islands, so the function's answer reads like the browser's own check in the page's language.
 */
import en from '../i18n/locales/en/forms.json' with { type: 'json' };
import de from '../i18n/locales/de/forms.json' with { type: 'json' };
import { intlLocale, type Lang } from '../i18n/lang.ts';
import type { FormWords } from '../lib/schemas.ts';

/** Every language's forms copy has the English file's shape: a missing key fails the type check. */
type FormsCopy = typeof en;
const byLang: Record<Lang, FormsCopy> = { en, de: de satisfies FormsCopy };

/** The forms copy of a language (the thank-you line, the error words). */
export const formsCopy = (lang: Lang): FormsCopy => byLang[lang];

/** The words `validate()` (src/lib/schemas.ts) needs to answer a public form in `lang`. */
export const formWords = (lang: Lang): FormWords => ({
  locale: intlLocale[lang],
  messages: byLang[lang].errors,
});
