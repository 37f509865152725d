/**
 * The newsletter's topics by name, in one place: the six divisions as the navigation names them, and company news.
 * The footer's sign-up, the reader's preference page and the admin's campaign editor all read them from here.
 */
import { NEWSLETTER_TOPICS, type NewsletterTopic } from '../content/constants.ts';
import enForms from './locales/en/forms.json' with { type: 'json' };
import deForms from './locales/de/forms.json' with { type: 'json' };
import enNav from './locales/en/nav.json' with { type: 'json' };
import deNav from './locales/de/nav.json' with { type: 'json' };
import type { Lang } from './lang.ts';

const nav = { en: enNav, de: deNav } as const;
const forms = { en: enForms, de: deForms } as const;

/** Where a topic's name is kept: `nav:sectors.<division>` (the menu's name) or `forms:newsletter.company_news`. */
export const topicKey = (topic: NewsletterTopic) =>
  topic === 'company-news'
    ? ('forms:newsletter.company_news' as const)
    : (`nav:sectors.${topic === 'oil-gas' ? 'oil_gas' : topic}` as const);

/** A topic's name in a language: "Pharma & life sciences", "Öl & Gas", "Company news". */
export function topicLabel(topic: NewsletterTopic, lang: Lang): string {
  if (topic === 'company-news') return forms[lang].newsletter.company_news;
  return nav[lang].sectors[topic === 'oil-gas' ? 'oil_gas' : topic];
}

/** Every topic's name through an i18next `t` (the admin's copy): `{ 'topic_oil-gas': 'Oil & gas', … }`. */
export const topicCopy = (t: (key: string) => string) =>
  Object.fromEntries(NEWSLETTER_TOPICS.map((topic) => [`topic_${topic}`, t(topicKey(topic))])) as Record<
    `topic_${NewsletterTopic}`,
    string
  >;

/** Every topic with its name, in the order of NEWSLETTER_TOPICS (SPEC's divisions, then company news). */
export const topicChoices = (lang: Lang) =>
  NEWSLETTER_TOPICS.map((topic) => ({ topic, label: topicLabel(topic, lang) }));
