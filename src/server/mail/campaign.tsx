/**
 * A newsletter issue as mail: the editor's Markdown in the brand frame, then cards for the chosen articles.
 * The Markdown becomes React elements through react-markdown, which never passes raw HTML through (an HTML
 * tag in the text is dropped), and only the elements below are kept; links must be http(s) or mailto, and a
 * path on the site (`/blog/gmp`) is made absolute. So nothing an editor types can add a script, a form, a
 * remote image or a tracking pixel. In the copies sent to subscribers, `trackLink` turns each web link into
 * the signed click redirect of the issue (counted per issue and link, never per reader).
 */
import { Section } from '@react-email/section';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import index from '../../generated/article-index.json' with { type: 'json' };
import type { IndexedArticle } from '../../lib/article-index.ts';
import { intlLocale, localePath, type Lang } from '../../i18n/lang.ts';
import { fill, mailCopy } from './copy.ts';
import { MailLayout, Paragraph, styles, Subheading, TextLink } from './layout.tsx';

const articleIndex = index as IndexedArticle[];

/** The published articles and news a campaign may show, newest first. */
export const indexedArticles = (): readonly IndexedArticle[] => articleIndex;

/** The index entries for `ids`, in their order; unknown ids are left out. */
export function articlesFor(ids: readonly string[]): IndexedArticle[] {
  return ids.flatMap((id) => articleIndex.find((article) => article.id === id) ?? []);
}

const ALLOWED = [
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'a',
  'strong',
  'em',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'br',
  'code',
  'pre',
];

/** http(s) and mailto links as they are, site paths made absolute; anything else loses its link. */
function safeUrl(siteUrl: string) {
  return (url: string): string | null => {
    if (/^(?:https?:\/\/|mailto:)/i.test(url)) return url;
    if (/^\/(?!\/)/.test(url)) return `${siteUrl}${url}`;
    return null;
  };
}

/** Rewrites a web link of an issue (mail links stay as they are); identity where clicks are not counted. */
type TrackLink = (url: string) => string;
const tracked = (href: string, trackLink?: TrackLink) =>
  trackLink && /^https?:\/\//i.test(href) ? trackLink(href) : href;

function components(trackLink?: TrackLink): Components {
  return {
    p: ({ children }) => <Paragraph>{children}</Paragraph>,
    h1: ({ children }) => <Subheading>{children}</Subheading>,
    h2: ({ children }) => <Subheading>{children}</Subheading>,
    h3: ({ children }) => <h3 style={styles.minorHeading}>{children}</h3>,
    h4: ({ children }) => <h3 style={styles.minorHeading}>{children}</h3>,
    a: ({ href, children }) =>
      href ? <TextLink href={tracked(href, trackLink)}>{children}</TextLink> : <>{children}</>,
    ul: ({ children }) => <ul style={styles.list}>{children}</ul>,
    ol: ({ children }) => <ol style={styles.list}>{children}</ol>,
    li: ({ children }) => <li style={{ marginBottom: '6px' }}>{children}</li>,
    blockquote: ({ children }) => <blockquote style={styles.quote}>{children}</blockquote>,
    hr: () => <hr style={styles.hrInline} />,
    code: ({ children }) => <code style={styles.code}>{children}</code>,
    pre: ({ children }) => <pre style={styles.pre}>{children}</pre>,
  };
}

export function MarkdownBody({
  markdown,
  siteUrl,
  trackLink,
}: {
  markdown: string;
  siteUrl: string;
  trackLink?: TrackLink;
}) {
  return (
    <Markdown
      allowedElements={ALLOWED}
      unwrapDisallowed
      skipHtml
      urlTransform={safeUrl(siteUrl)}
      components={components(trackLink)}
    >
      {markdown}
    </Markdown>
  );
}

/** "14 May 2024", "14. Mai 2024": an article's date as the language writes it (content dates are UTC). */
const articleDate = (date: string, lang: Lang) =>
  new Intl.DateTimeFormat(intlLocale[lang], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(date));

/** An article as an issue in `lang` shows it: its German twin's words and page where it has one. */
function cardOf(article: IndexedArticle, lang: Lang) {
  const twin = lang === 'de' ? article.de : undefined;
  return twin
    ? { ...twin, path: localePath(lang, article.path), lang }
    : { title: article.title, summary: article.summary, path: article.path, lang: 'en' as Lang };
}

function ArticleCards({
  articles,
  siteUrl,
  lang,
  trackLink,
}: {
  articles: readonly IndexedArticle[];
  siteUrl: string;
  lang: Lang;
  trackLink?: TrackLink;
}) {
  const c = mailCopy(lang).campaign;
  return (
    <Section style={{ margin: '8px 0 4px' }}>
      <Subheading>{c.articles_heading}</Subheading>
      {articles.map((article) => {
        const card = cardOf(article, lang);
        const href = tracked(`${siteUrl}${card.path}`, trackLink);
        // An article not yet in the language keeps its English words, marked as English.
        const other = card.lang === lang ? undefined : card.lang;
        return (
          <Section key={article.id} style={styles.card}>
            <p style={styles.cardDate}>{fill(c.published, { date: articleDate(article.date, lang) })}</p>
            <h3 style={styles.cardTitle} lang={other}>
              <TextLink href={href}>{card.title}</TextLink>
            </h3>
            <Paragraph lang={other}>{card.summary}</Paragraph>
            <p style={{ ...styles.small, margin: 0 }}>
              <TextLink href={href}>{c.read}</TextLink>
            </p>
          </Section>
        );
      })}
    </Section>
  );
}

export interface CampaignMailProps {
  siteUrl: string;
  /** The language: the frame's words (footer, "view in browser", card labels) follow it. */
  lang: Lang;
  subject: string;
  preheader: string;
  markdown: string;
  articles: readonly IndexedArticle[];
  /** The signed "view in browser" address; the web version itself has none. */
  viewUrl?: string;
  /** The recipient's own unsubscribe address. */
  unsubscribeUrl?: string;
  /** The recipient's own preference page (topics, language, pause). */
  preferencesUrl?: string;
  /** Said where the unsubscribe link would stand: on a test copy, and on the web version. */
  footerNote?: ReactNode;
  /** The web version's document title. */
  webTitle?: string;
  /** Turns each web link into the signed click redirect (the copies sent to subscribers only). */
  trackLink?: TrackLink;
}

export function CampaignMail(props: CampaignMailProps) {
  return (
    <MailLayout
      siteUrl={props.siteUrl}
      lang={props.lang}
      heading={props.subject}
      preview={props.preheader}
      unsubscribeUrl={props.unsubscribeUrl}
      preferencesUrl={props.preferencesUrl}
      note={props.footerNote}
      webTitle={props.webTitle}
      top={
        props.viewUrl && <TextLink href={props.viewUrl}>{mailCopy(props.lang).campaign.view_online}</TextLink>
      }
    >
      <MarkdownBody markdown={props.markdown} siteUrl={props.siteUrl} trackLink={props.trackLink} />
      {props.articles.length > 0 && (
        <ArticleCards
          articles={props.articles}
          siteUrl={props.siteUrl}
          lang={props.lang}
          trackLink={props.trackLink}
        />
      )}
    </MailLayout>
  );
}
