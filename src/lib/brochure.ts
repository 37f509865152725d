/**
 * Where the brochure lives and what its link says about it, in each language. The PDFs are generated from
 * the site's content (scripts/brochure.ts) into public/ before every build and dev start: the English one
 * at /korvel-brochure.pdf, the German one beside it at /korvel-brochure-de.pdf.
 */
import { readFileSync } from 'node:fs';
import { defaultLang, languages, type Lang } from '../i18n/lang.ts';
import { site } from '../site.config.ts';

export interface BrochureFile {
  /** Served at the site root; the link never prints it. */
  href: string;
  /** The name a download is saved under. */
  fileName: string;
}

/** The brochure of each language: English keeps its name, the others add `-<lang>`. */
export const brochures = Object.fromEntries(
  languages.map((lang) => {
    const suffix = lang === defaultLang ? '' : `-${lang}`;
    return [
      lang,
      { href: `/${site.slug}-brochure${suffix}.pdf`, fileName: `${site.name}-brochure${suffix}.pdf` },
    ];
  }),
) as Record<Lang, BrochureFile>;

/** The English brochure. */
export const brochure = brochures[defaultLang];

/**
 * Page count and size of a PDF as pdfkit writes it (the page tree's `/Count` is in plain text).
 * @example pdfFacts(bytes) // { pages: 7, bytes: 182113 }
 */
export function pdfFacts(pdf: Uint8Array): { pages: number; bytes: number } {
  const text = new TextDecoder('latin1').decode(pdf);
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
  if (!text.startsWith('%PDF-') || counts.length === 0) throw new Error('Not a PDF with a page tree');
  return { pages: Math.max(...counts), bytes: pdf.length };
}

const factsByFile = new Map<string, { pages: number; bytes: number }>();

/**
 * pdfFacts of a file, read once per process: the build writes the brochure before any page renders, and
 * every page's call-to-action band names its pages and size.
 */
export function pdfFactsOf(file: string): { pages: number; bytes: number } {
  let facts = factsByFile.get(file);
  if (!facts) {
    facts = pdfFacts(readFileSync(file));
    factsByFile.set(file, facts);
  }
  return facts;
}

const sizeFormats = new Map<string, Intl.NumberFormat>();

/**
 * A file size as people read it: kilobytes under one megabyte, otherwise megabytes with one decimal.
 * @example formatFileSize(73432, 'en') // '72 kB'
 */
export function formatFileSize(bytes: number, locale: string): string {
  const megabytes = bytes >= 1024 * 1024;
  const key = `${locale} ${megabytes}`;
  let format = sizeFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: megabytes ? 'megabyte' : 'kilobyte',
      unitDisplay: 'short',
      maximumFractionDigits: megabytes ? 1 : 0,
    });
    sizeFormats.set(key, format);
  }
  return format.format(megabytes ? bytes / (1024 * 1024) : Math.max(1, Math.round(bytes / 1024)));
}
