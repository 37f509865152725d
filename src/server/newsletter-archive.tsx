/**
 * GET /newsletter and /de/newsletter: the public archive of sent issues (issue 36). The page is the site's own
 * built page (src/pages/[...lang]/newsletter/index.astro: layout, canonical, hreflang, sitemap) with the list of
 * the language's sent, listed issues in place of its empty state. Each entry links the issue's web copy, the
 * page "view in browser" opens: the mail without the unsubscribe link or any other link of one reader.
 *
 * The function reads the built page from the site itself (`/newsletter/index.html`, a path it does not answer),
 * once per warm instance; a deploy replaces both together.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import de from '../i18n/locales/de/newsletter.json' with { type: 'json' };
import en from '../i18n/locales/en/newsletter.json' with { type: 'json' };
import { localePath, splitLocale, type Lang } from '../i18n/lang.ts';
import { formatDate, isoDate } from '../lib/dates.ts';
import { database } from './config.ts';
import type { Handler } from './http.ts';
import { campaignViewUrl } from './mail/links.ts';
import { archivedIssues, type ArchivedIssue } from './repositories/campaigns.ts';
import { FIRM_TIME_ZONE } from '../lib/firm-time.ts';

const WORDS: Record<Lang, typeof en.archive> = { en: en.archive, de: de.archive };

/** The shell's region that the list replaces: the section and what it holds (no section nests in it). */
const REGION = /(<section id="newsletter-archive"[^>]*>)[\s\S]*?(<\/section>)/;

const dayInBelgrade = new Intl.DateTimeFormat('en-CA', {
  timeZone: FIRM_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The day an issue went out, as the firm's calendar in Belgrade has it. */
const sentDay = (sentAt: Date) => new Date(`${dayInBelgrade.format(sentAt)}T00:00:00Z`);

/** The web copy of an issue, on this site: the same signed address as the mail's "view in browser" link. */
const issuePath = (id: number) => campaignViewUrl('', id);

function ArchiveList({ issues, lang }: { issues: readonly ArchivedIssue[]; lang: Lang }) {
  const words = WORDS[lang];
  return (
    <ol className="newsletter-archive__list">
      {issues.map((issue) => {
        const day = sentDay(issue.sentAt);
        return (
          <li key={issue.id} className="newsletter-archive__item">
            <h2>
              <a href={issuePath(issue.id)} hrefLang={lang}>
                {issue.subject}
              </a>
            </h2>
            <p className="newsletter-archive__meta">
              {words.sent_on} <time dateTime={isoDate(day)}>{formatDate(day, lang)}</time>
            </p>
            {issue.preheader && <p className="newsletter-archive__summary">{issue.preheader}</p>}
          </li>
        );
      })}
    </ol>
  );
}

/** The archive page: the shell with the issues listed, or as built (its empty state) when there are none. */
export function archivePage(shell: string, issues: readonly ArchivedIssue[], lang: Lang): string {
  if (!REGION.test(shell)) throw new Error('the newsletter archive shell has no #newsletter-archive section');
  if (issues.length === 0) return shell;
  const list = renderToStaticMarkup(<ArchiveList issues={issues} lang={lang} />);
  return shell.replace(REGION, (_whole, open: string, close: string) => `${open}${list}${close}`);
}

const shells = new Map<string, Promise<string>>();

/** The built page of a language, fetched from the site once per instance (a failed fetch is tried again). */
function shellOf(origin: string, lang: Lang): Promise<string> {
  const url = `${origin}${localePath(lang, '/newsletter')}/index.html`;
  let shell = shells.get(url);
  if (!shell) {
    shell = fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } }).then(async (response) => {
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      return response.text();
    });
    shells.set(url, shell);
    shell.catch(() => shells.delete(url));
  }
  return shell;
}

export const archiveHandler: Handler = async (req) => {
  const db = database();
  const url = new URL(req.url);
  const { lang } = splitLocale(url.pathname);
  const [shell, issues] = await Promise.all([shellOf(url.origin, lang), archivedIssues(db, lang)]);
  return new Response(archivePage(shell, issues, lang), {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // A minute at most before a newly sent or withdrawn issue shows.
      'cache-control': 'public, max-age=60',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    },
  });
};
