/**
 * The brand frame of every mail: drafting-paper background, the wordmark, a copper rule, the company's
 * details and, for newsletter mail, the unsubscribe link. Inline styles only (mail clients drop <style>),
 * no remote images, no tracking.
 */
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { CSSProperties, ReactNode } from 'react';
import { intlLocale, localePath, type Lang } from '../../i18n/lang.ts';
import { site } from '../../site.config.ts';
import { fill, mailCopy } from './copy.ts';

const ink = '#0e2230';
const blue = '#16466e';
const copper = '#b24a12';
const muted = '#4a5866';
const paper = '#f7f5f0';
const rule = '#d9d4c7';
const font = "'IBM Plex Sans', 'Segoe UI', Helvetica, Arial, sans-serif";

export const styles = {
  body: { backgroundColor: paper, color: ink, fontFamily: font, margin: 0, padding: '24px 0' },
  container: { backgroundColor: '#ffffff', border: `1px solid ${rule}`, maxWidth: '600px', margin: '0 auto' },
  header: { borderBottom: `3px solid ${copper}`, padding: '20px 32px 16px' },
  wordmark: { color: blue, fontSize: '22px', fontWeight: 700, letterSpacing: '0.18em', margin: 0 },
  tagline: { color: muted, fontSize: '12px', letterSpacing: '0.04em', margin: '4px 0 0' },
  content: { padding: '28px 32px 8px' },
  heading: { color: blue, fontSize: '22px', lineHeight: '1.3', margin: '0 0 16px' },
  text: { fontSize: '15px', lineHeight: '1.6', margin: '0 0 16px' },
  small: { color: muted, fontSize: '13px', lineHeight: '1.5', margin: '0 0 12px' },
  label: { color: muted, fontSize: '13px', padding: '6px 12px 6px 0', verticalAlign: 'top', width: '34%' },
  value: { fontSize: '15px', padding: '6px 0', verticalAlign: 'top', whiteSpace: 'pre-wrap' },
  button: {
    backgroundColor: copper,
    borderRadius: '4px',
    color: '#ffffff',
    display: 'inline-block',
    fontSize: '15px',
    fontWeight: 600,
    padding: '12px 20px',
    textDecoration: 'none',
  },
  link: { color: blue, textDecoration: 'underline' },
  footer: { padding: '8px 32px 24px' },
  hr: { borderColor: rule, margin: '8px 0 16px' },
  top: { color: muted, fontSize: '12px', margin: '0 auto 8px', maxWidth: '600px', textAlign: 'center' },
  minorHeading: { color: ink, fontSize: '15px', fontWeight: 700, lineHeight: '1.4', margin: '4px 0 8px' },
  list: { fontSize: '15px', lineHeight: '1.6', margin: '0 0 16px', paddingLeft: '22px' },
  quote: { borderLeft: `3px solid ${rule}`, color: muted, margin: '0 0 16px', padding: '0 0 0 14px' },
  hrInline: { border: 'none', borderTop: `1px solid ${rule}`, margin: '20px 0' },
  code: { backgroundColor: paper, fontFamily: "'IBM Plex Mono', Consolas, monospace", fontSize: '14px' },
  pre: { backgroundColor: paper, fontSize: '13px', margin: '0 0 16px', overflowX: 'auto', padding: '12px' },
  card: { borderTop: `1px solid ${rule}`, padding: '14px 0 6px' },
  cardDate: { color: muted, fontSize: '12px', letterSpacing: '0.04em', margin: '0 0 4px' },
  cardTitle: { fontSize: '16px', lineHeight: '1.4', margin: '0 0 8px' },
} satisfies Record<string, CSSProperties>;

export function Paragraph({
  children,
  small = false,
  lang,
}: {
  children: ReactNode;
  small?: boolean;
  /** Set when the text is not in the mail's language (an English article in a German issue). */
  lang?: string;
}) {
  return (
    <Text style={small ? styles.small : styles.text} lang={lang}>
      {children}
    </Text>
  );
}

export function Subheading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h2" style={{ ...styles.heading, fontSize: '17px', margin: '8px 0 8px' }}>
      {children}
    </Heading>
  );
}

export function Bullets({ items }: { items: readonly string[] }) {
  return (
    <ul style={{ ...styles.text, paddingLeft: '20px' }}>
      {items.map((item) => (
        <li key={item} style={{ marginBottom: '6px' }}>
          {item}
        </li>
      ))}
    </ul>
  );
}

/** Label and value pairs; a row whose value is empty is left out unless `empty` names it. */
export function Facts({
  rows,
  empty,
}: {
  rows: ReadonlyArray<readonly [string, ReactNode]>;
  empty?: string;
}) {
  const shown = rows.filter(([, value]) => value || empty);
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ width: '100%', margin: '0 0 20px' }}>
      <tbody>
        {shown.map(([label, value]) => (
          <tr key={label}>
            <td style={styles.label}>{label}</td>
            <td style={styles.value}>{value || <span style={{ color: muted }}>{empty}</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Action({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '4px 0 20px' }}>
      <Button href={href} style={styles.button}>
        {children}
      </Button>
    </Section>
  );
}

export function TextLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <Link href={href} style={styles.link}>
      {children ?? href}
    </Link>
  );
}

interface LayoutProps {
  preview: string;
  heading: string;
  siteUrl: string;
  /** Newsletter mail only: the recipient's own one-click unsubscribe address. */
  unsubscribeUrl?: string;
  /** Newsletter mail only: the recipient's own preference page (topics, language, pause). */
  preferencesUrl?: string;
  /** A line in the footer, where the unsubscribe link stands in a subscriber's copy. */
  note?: ReactNode;
  /** A line above the frame (a newsletter issue's "view in browser" link). */
  top?: ReactNode;
  /** Only for a mail shown as a web page: its title (and a viewport for phones). */
  webTitle?: string;
  /** The reader's language: the frame's words and its links to the site follow it. English by default. */
  lang?: Lang;
  children: ReactNode;
}

export function MailLayout(props: LayoutProps) {
  const {
    preview,
    heading,
    siteUrl,
    unsubscribeUrl,
    preferencesUrl,
    note,
    top,
    webTitle,
    lang = 'en',
  } = props;
  const { layout } = mailCopy(lang);
  return (
    <Html lang={intlLocale[lang]}>
      <Head>
        <meta name="color-scheme" content="light" />
        {webTitle && <title>{webTitle}</title>}
        {webTitle && <meta name="viewport" content="width=device-width, initial-scale=1" />}
      </Head>
      {preview && <Preview>{preview}</Preview>}
      <Body style={styles.body}>
        {top && <Text style={styles.top}>{top}</Text>}
        <Container style={styles.container}>
          <Section style={styles.header}>
            <Text style={styles.wordmark}>{site.name.toUpperCase()}</Text>
            <Text style={styles.tagline}>{layout.tagline}</Text>
          </Section>
          <Section style={styles.content}>
            <Heading as="h1" style={styles.heading}>
              {heading}
            </Heading>
            {props.children}
          </Section>
          <Section style={styles.footer}>
            <Hr style={styles.hr} />
            {unsubscribeUrl && (
              <Text style={styles.small}>
                {layout.unsubscribe_intro}{' '}
                {preferencesUrl && (
                  <>
                    <TextLink href={preferencesUrl}>{layout.preferences}</TextLink> ·{' '}
                  </>
                )}
                <TextLink href={unsubscribeUrl}>{layout.unsubscribe}</TextLink>
              </Text>
            )}
            {note && <Text style={styles.small}>{note}</Text>}
            <Text style={styles.small}>
              {fill(layout.sent_by, {
                legalName: site.legalName,
                ...site.address,
                // The place names of the mail's language: „Belgrad, Serbien“ in German.
                city: layout.city,
                country: layout.country,
              })}{' '}
              <TextLink href={`mailto:${site.email}`}>{site.email}</TextLink> · {site.phone}
            </Text>
            <Text style={styles.small}>
              <TextLink href={lang === 'en' ? siteUrl : `${siteUrl}${localePath(lang, '/')}`}>
                {layout.website}
              </TextLink>{' '}
              ·{' '}
              <TextLink href={`${siteUrl}${localePath(lang, '/privacy-policy')}`}>{layout.privacy}</TextLink>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
