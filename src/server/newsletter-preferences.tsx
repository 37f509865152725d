/**
 * GET and POST /newsletter/preferences?token=… (and /de/…) — the reader's own preference page, linked from the
 * footer of every newsletter mail: the topics they follow, their language, a three-month pause, and the way
 * out. No sign-in: the signed link (its own purpose, bound to the address) is the key. A GET only shows the
 * choices (mail scanners open every link); a POST from one of the page's forms changes them, and each change is
 * kept in `subscriber_changes` for the subscriber's record. Unsubscribing posts to the one-click unsubscribe
 * link, so it has exactly that link's effect. Everything works without JavaScript: the page has none.
 */
import { NEWSLETTER_TOPICS, type NewsletterTopic } from '../content/constants.ts';
import { intlLocale, isLang, languages, localePath, splitLocale, type Lang } from '../i18n/lang.ts';
import { topicChoices } from '../i18n/topics.ts';
import { database } from './config.ts';
import { DbUnavailableError } from './db/index.ts';
import { HttpError, readForm, type Handler } from './http.ts';
import { fill, mailCopy } from './mail/copy.ts';
import { linkTokenOf, signLinkToken, verifyLinkToken, type LinkClaims } from './mail/links.ts';
import { linkPage } from './newsletter-links.ts';
import { linkPageResponse } from './pages/LinkPage.tsx';
import {
  changePreferences,
  findPreferences,
  type PreferenceChange,
  type Preferences,
} from './repositories/subscribers.ts';
import { FIRM_TIME_ZONE } from '../lib/firm-time.ts';

/** Seven checkboxes, a language and an action: far below this. */
const FORM_LIMIT = 4 * 1024;

type Notice = { kind: 'done' | 'alert'; key: 'saved' | 'unchanged' | 'no_topic' | 'bad_form' | 'resumed' };

/** "28 February 2027", "28. Februar 2027": the last day of a pause, in Belgrade, as the reader's language writes it. */
const pauseDate = (until: Date, lang: Lang) =>
  new Intl.DateTimeFormat(intlLocale[lang], { dateStyle: 'long', timeZone: FIRM_TIME_ZONE }).format(until);

const pagePath = (lang: Lang, token: string) =>
  `${localePath(lang, '/newsletter/preferences')}?token=${encodeURIComponent(token)}`;

function PreferenceForms({
  prefs,
  action,
  unsubscribeAction,
}: {
  prefs: Preferences;
  action: string;
  unsubscribeAction: string;
}) {
  const { lang } = prefs;
  const c = mailCopy(lang).pages.preferences;
  return (
    <>
      <form method="post" action={action}>
        <input type="hidden" name="action" value="save" />
        <fieldset aria-describedby="topics-hint">
          <legend>{c.topics_legend}</legend>
          <p className="hint" id="topics-hint">
            {c.topics_hint}
          </p>
          <ul className="checks">
            {topicChoices(lang).map(({ topic, label }) => (
              <li key={topic}>
                <label className="check">
                  <input
                    type="checkbox"
                    name={`topic-${topic}`}
                    defaultChecked={prefs.topics.includes(topic)}
                  />
                  {label}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <fieldset aria-describedby="language-hint">
          <legend>{c.language_legend}</legend>
          <p className="hint" id="language-hint">
            {c.language_hint}
          </p>
          <ul className="checks">
            {languages.map((option) => (
              <li key={option}>
                <label className="check" lang={intlLocale[option]}>
                  <input type="radio" name="lang" value={option} defaultChecked={option === lang} />
                  {mailCopy(option).languages[option]}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <p>
          <button type="submit">{c.save}</button>
        </p>
      </form>
      <section className="part" aria-labelledby="pause-heading">
        <h2 id="pause-heading">{c.pause_heading}</h2>
        <form method="post" action={action}>
          {prefs.pausedUntil ? (
            <>
              <p>{fill(c.paused, { date: pauseDate(prefs.pausedUntil, lang) })}</p>
              <input type="hidden" name="action" value="resume" />
              <p>
                <button type="submit" className="quiet">
                  {c.resume}
                </button>
              </p>
            </>
          ) : (
            <>
              <p>{c.pause_text}</p>
              <input type="hidden" name="action" value="pause" />
              <p>
                <button type="submit" className="quiet">
                  {c.pause}
                </button>
              </p>
            </>
          )}
        </form>
      </section>
      <section className="part" aria-labelledby="unsubscribe-heading">
        <h2 id="unsubscribe-heading">{c.unsubscribe_heading}</h2>
        <form method="post" action={unsubscribeAction}>
          <p>{c.unsubscribe_text}</p>
          <p>
            <button type="submit" className="quiet">
              {c.unsubscribe}
            </button>
          </p>
        </form>
      </section>
    </>
  );
}

/** The page with the reader's current choices, in their language, and what the last press did. */
async function preferencePage(
  status: number,
  prefs: Preferences,
  token: string,
  claims: LinkClaims,
  notice?: Notice,
): Promise<Response> {
  const { lang } = prefs;
  const pages = mailCopy(lang).pages;
  const c = pages.preferences;
  const unsubscribeToken = await signLinkToken('unsubscribe', claims);
  return linkPageResponse(status, {
    eyebrow: pages.eyebrow,
    title: c.title,
    paragraphs: c.text.map((text) => fill(text, { email: prefs.email })),
    ...(notice?.kind === 'alert' && { alert: c[notice.key] }),
    body: (
      <>
        {notice?.kind === 'done' && (
          <p className="done" role="status">
            {c[notice.key]}
          </p>
        )}
        <PreferenceForms
          prefs={prefs}
          action={pagePath(lang, token)}
          unsubscribeAction={`${localePath(lang, '/newsletter/unsubscribe')}?token=${encodeURIComponent(unsubscribeToken)}`}
        />
      </>
    ),
    next: { href: '/', label: pages.home },
    lang,
  });
}

/** The change a form asks for, or why it cannot be read. */
function changeOf(fields: Record<string, string>): PreferenceChange | Notice['key'] {
  const { action, lang, ...rest } = fields;
  if (action === 'pause' || action === 'resume')
    return Object.keys(fields).length === 1 ? { kind: action } : 'bad_form';
  if (action !== 'save' || !isLang(lang)) return 'bad_form';
  const topics: NewsletterTopic[] = [];
  for (const [name, value] of Object.entries(rest)) {
    const topic = name.replace(/^topic-/, '');
    if (
      !name.startsWith('topic-') ||
      !(NEWSLETTER_TOPICS as readonly string[]).includes(topic) ||
      value !== 'on'
    )
      return 'bad_form';
    topics.push(topic as NewsletterTopic);
  }
  return topics.length ? { kind: 'save', topics, lang } : 'no_topic';
}

/** The posted form, or `unreadable` when a field came twice or the body is not a form. */
async function formOf(req: Request): Promise<Record<string, string> | 'unreadable'> {
  try {
    return await readForm(req, FORM_LIMIT);
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return 'unreadable';
    throw error;
  }
}

const sameChoices = (a: Preferences, b: Preferences) =>
  a.lang === b.lang &&
  a.topics.join() === b.topics.join() &&
  a.pausedUntil?.getTime() === b.pausedUntil?.getTime();

function respond(method: 'GET' | 'POST'): Handler {
  return async (req) => {
    // The mail sent the reader to the page of their language (`/de/newsletter/…` for German).
    const { lang } = splitLocale(new URL(req.url).pathname);
    try {
      const fields = method === 'POST' ? await formOf(req) : undefined;
      const token = linkTokenOf(req);
      const check = token ? await verifyLinkToken('preferences', token) : undefined;
      if (!check?.ok) return linkPage(400, lang, 'invalid');
      const { subscriberId, tag } = check.claims;
      const db = database();
      const before = await findPreferences(db, subscriberId, tag);
      if (!before) return linkPage(410, lang, 'gone_unsubscribe');
      if (!fields) return preferencePage(200, before, token!, check.claims);
      const change = fields === 'unreadable' ? 'bad_form' : changeOf(fields);
      if (typeof change === 'string')
        return preferencePage(400, before, token!, check.claims, { kind: 'alert', key: change });
      const after = await db.transaction((tx) => changePreferences(tx, subscriberId, tag, change));
      if (!after) return linkPage(410, lang, 'gone_unsubscribe');
      const key = change.kind === 'resume' ? 'resumed' : sameChoices(before, after) ? 'unchanged' : 'saved';
      return preferencePage(200, after, token!, check.claims, { kind: 'done', key });
    } catch (error) {
      if (error instanceof DbUnavailableError) {
        console.error(`[newsletter-preferences] database unavailable: ${error.message}`);
        return linkPage(503, lang, 'unavailable');
      }
      if (error instanceof HttpError && error.status === 413) return linkPage(413, lang, 'invalid');
      throw error;
    }
  };
}

export const preferenceHandlers = { GET: respond('GET'), POST: respond('POST') };
