/**
 * Lays the brochure out on A4 with pdfkit: cover, who we are, services, divisions, selected references,
 * how we work, contact. Every page is composed on a fixed grid; a page whose content outgrows its frame
 * stops the script (no silent overflow onto an extra page). Colours are the site's tokens
 * (src/styles/tokens.css), type is IBM Plex (./fonts.ts), the logo and cover drawing are the site's own SVG.
 *
 * The PDF is tagged: a Document holds one Sect per page, and every text box is a P or heading (H1 the cover
 * title, H2 the page titles, H3 the items) added in reading order; the logo and the drawing are Figures
 * with alt text. Everything else (backgrounds, rules, bullets, numbering, running header and footer) is
 * drawn as an artifact, which a screen reader skips.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { BrochureContent } from './content.ts';
import { readDrawing, type Drawing } from './drawing.ts';
import { FontBook, type Family } from './fonts.ts';
import { intlLocale, localePath, type Lang } from '../../../src/i18n/lang.ts';
import { sectors } from '../../../src/routes.ts';

const A4 = { width: 595.28, height: 841.89 };
const FRAME = { left: 56, right: A4.width - 56, top: 74, bottom: 780 };
const WIDTH = FRAME.right - FRAME.left;
const GUTTER = 24;
const HALF = (WIDTH - GUTTER) / 2;

type Palette = Record<
  | 'ink'
  | 'ink-2'
  | 'muted'
  | 'paper'
  | 'paper-2'
  | 'line'
  | 'line-strong'
  | 'blueprint'
  | 'blueprint-deep'
  | 'blueprint-wash'
  | 'accent'
  | 'accent-bright'
  | 'on-dark'
  | 'on-dark-muted'
  | 'on-dark-accent',
  string
>;

/** The colour tokens of the site, read from its stylesheet so the brochure follows a palette change. */
function readPalette(root: string): Palette {
  const css = readFileSync(join(root, 'src', 'styles', 'tokens.css'), 'utf8');
  const tokens = Object.fromEntries(
    [...css.matchAll(/--([a-z0-9-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map(([, name, value]) => [name, value]),
  );
  const palette = {} as Palette;
  for (const name of [
    'ink',
    'ink-2',
    'muted',
    'paper',
    'paper-2',
    'line',
    'line-strong',
    'blueprint',
    'blueprint-deep',
    'blueprint-wash',
    'accent',
    'accent-bright',
    'on-dark',
    'on-dark-muted',
    'on-dark-accent',
  ] as const) {
    const value = tokens[name];
    if (!value) throw new Error(`brochure: src/styles/tokens.css has no --${name} colour`);
    palette[name] = value;
  }
  return palette;
}

/** Structure types of text boxes; null draws untagged text inside a figure or an artifact. */
type Tag = 'H1' | 'H2' | 'H3' | 'P';

interface TextExtra extends PDFKit.Mixins.TextOptions {
  /** @default 'P' */
  tag?: Tag | null;
}

/** pdfkit 0.20 takes a Layout bounding box for figures; @types/pdfkit does not list it yet. */
interface FigureOptions extends PDFKit.Mixins.StructureElementOptions {
  alt: string;
  /** Left, top, right, bottom in page points from the top left. */
  bbox: [number, number, number, number];
  placement: 'Block';
}

interface Style {
  family: Family;
  weight: number;
  size: number;
  color: string;
  lineGap?: number;
  /** Letter spacing in em. */
  tracking?: number;
  upper?: boolean;
}

interface Mark {
  d: string;
  strokeWidth: number;
  dot: { cx: number; cy: number; r: number; fill: string };
}

function readMark(root: string): Mark {
  const svg = readFileSync(join(root, 'public', 'favicon.svg'), 'utf8');
  const d = /<path[^>]*\sd="([^"]+)"/.exec(svg)?.[1];
  const strokeWidth = Number(/stroke-width="([\d.]+)"/.exec(svg)?.[1] ?? 2.6);
  const circle =
    /<circle[^>]*cx="([\d.]+)"[^>]*cy="([\d.]+)"[^>]*r="([\d.]+)"[^>]*fill="(#[0-9a-f]{6})"/i.exec(svg);
  if (!d || !circle) throw new Error('brochure: public/favicon.svg lost its path or circle');
  return {
    d,
    strokeWidth,
    dot: { cx: Number(circle[1]), cy: Number(circle[2]), r: Number(circle[3]), fill: circle[4]! },
  };
}

export interface RenderOptions {
  /** Repository root: tokens, favicon and the hero drawing are read from it. */
  root: string;
}

/** A page's content passed the bottom of its frame. */
export class OverflowError extends Error {}

/**
 * The sizes the running text (lead, body, small, strong) may take, largest first, per language. The grid
 * was drawn for English, which always sets at full size: an English page that outgrows its frame stops the
 * script. German runs 15–30 % longer than English, so its running text may step down in 2 % steps to 90 %
 * before a page counts as overflowing; headings, labels and figures keep their size in every language.
 */
const TEXT_SCALES: Record<Lang, readonly number[]> = {
  en: [1],
  de: [1, 0.98, 0.96, 0.94, 0.92, 0.9],
};

class Brochure {
  readonly doc: PDFKit.PDFDocument;
  readonly fonts: FontBook;
  readonly c: Palette;
  readonly mark: Mark;
  readonly drawing: Drawing | undefined;
  readonly content: BrochureContent;
  readonly s: Record<
    'display' | 'h1' | 'lead' | 'h3' | 'body' | 'small' | 'strong' | 'eyebrow' | 'label' | 'figure',
    Style
  >;
  readonly edition: string;
  /** Section names of the inner pages, for the running header. */
  readonly sections: string[] = [];
  /** The root of the structure tree, and the section of the page being composed. */
  readonly tree: PDFKit.PDFStructureElement;
  private section: PDFKit.PDFStructureElement | undefined;
  /** While true, text() draws without tags (inside a figure, or page furniture). */
  private untagged = false;

  constructor(content: BrochureContent, options: RenderOptions, scale = 1) {
    const { site, t } = content;
    this.content = content;
    this.c = readPalette(options.root);
    this.mark = readMark(options.root);
    this.drawing = readDrawing(join(options.root, 'src', 'components', 'art', 'PlantHero.astro'));
    this.edition = t('edition', {
      date: content.edition.toLocaleDateString(intlLocale[content.lang], {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    });
    this.doc = new PDFDocument({
      size: 'A4',
      margin: 0,
      autoFirstPage: false,
      bufferPages: true,
      tagged: true,
      // The document language a screen reader speaks it in: en-GB, or de-DE for the German brochure.
      lang: intlLocale[content.lang],
      displayTitle: true,
      pdfVersion: '1.7',
      info: {
        Title: t('meta.title', { name: site.displayName }),
        Author: site.legalName,
        Subject: t('meta.subject'),
        Keywords: t('meta.keywords'),
        Creator: `${site.url} (npm run brochure)`,
        CreationDate: content.edition,
        ModDate: content.edition,
      },
    } as PDFKit.PDFDocumentOptions);
    this.fonts = new FontBook(this.doc);
    this.tree = this.doc.struct('Document');
    this.doc.addStructure(this.tree);
    const c = this.c;
    this.s = {
      display: { family: 'sans', weight: 600, size: 34, color: c['on-dark'], lineGap: 1 },
      h1: { family: 'sans', weight: 600, size: 22, color: c.ink, lineGap: 1.5 },
      lead: { family: 'sans', weight: 400, size: 10.4 * scale, color: c['ink-2'], lineGap: 3.8 * scale },
      h3: { family: 'sans', weight: 600, size: 11, color: c.ink, lineGap: 1.5 },
      body: { family: 'sans', weight: 400, size: 8.8 * scale, color: c['ink-2'], lineGap: 3.2 * scale },
      small: { family: 'sans', weight: 400, size: 8.2 * scale, color: c.muted, lineGap: 2.6 * scale },
      strong: { family: 'sans', weight: 600, size: 8.6 * scale, color: c.ink, lineGap: 2.4 * scale },
      eyebrow: { family: 'mono', weight: 500, size: 7.4, color: c.accent, tracking: 0.14, upper: true },
      label: { family: 'mono', weight: 500, size: 6.6, color: c.muted, tracking: 0.1, upper: true },
      figure: { family: 'sans', weight: 600, size: 25, color: c.blueprint },
    };
  }

  /** The address of a site page in the brochure's language: `/oil&gas` → `https://…/de/oil&gas` in German. */
  pageUrl(path: string): string {
    return `${this.content.site.url}${localePath(this.content.lang, path)}`;
  }

  // ── Type ────────────────────────────────────────────────────────────────────────────────────────────

  private options(style: Style, width: number, extra: PDFKit.Mixins.TextOptions = {}) {
    return {
      width,
      lineGap: style.lineGap ?? 0,
      characterSpacing: (style.tracking ?? 0) * style.size,
      ...extra,
    };
  }

  height(value: string, style: Style, width: number): number {
    const text = style.upper ? value.toUpperCase() : value;
    this.doc.font(this.fonts.primary(style.family, style.weight)).fontSize(style.size);
    return this.doc.heightOfString(text, this.options(style, width));
  }

  width(value: string, style: Style): number {
    const text = style.upper ? value.toUpperCase() : value;
    this.doc.font(this.fonts.primary(style.family, style.weight)).fontSize(style.size);
    return this.doc.widthOfString(text, this.options(style, Infinity));
  }

  /**
   * Sets text in a box and returns its height. Runs switch font where a character needs it. The box is one
   * structure element of the page (`tag`, a Link inside it when the text links somewhere).
   */
  text(
    value: string,
    style: Style,
    x: number,
    y: number,
    width: number,
    { tag = 'P', ...extra }: TextExtra = {},
  ): number {
    const text = style.upper ? value.toUpperCase() : value;
    const height = this.height(value, style, width);
    const runs = this.fonts.runs(text, style.family, style.weight);
    const draw = () => {
      this.doc.fillColor(style.color).fontSize(style.size);
      runs.forEach((run, i) => {
        this.doc.font(run.font);
        const options = this.options(style, width, { ...extra, continued: i < runs.length - 1 });
        if (i === 0) this.doc.text(run.text, x, y, options);
        else this.doc.text(run.text, options);
      });
    };
    if (tag === null || this.untagged) draw();
    else if (extra.link) this.tagged(tag, {}, [this.doc.struct('Link', {}, draw)]);
    else this.tagged(tag, {}, draw);
    return height;
  }

  // ── Structure ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Adds an element to the page's section and draws its content now, between the artifacts around it.
   * pdfkit runs a closure child when the element joins the (attached) tree, marking what it draws.
   */
  private tagged(
    type: string,
    options: PDFKit.Mixins.StructureElementOptions,
    children: PDFKit.PDFStructureElementChild | PDFKit.PDFStructureElementChild[],
  ) {
    if (!this.section) throw new Error('brochure: text before the first page');
    this.doc.endMarkedContent();
    this.section.add(this.doc.struct(type, options, children));
    this.doc.markContent('Artifact');
  }

  /** A drawing as one Figure: its alt text stands for it, the labels inside are not read one by one. */
  private figure(options: Omit<FigureOptions, 'placement'>, draw: () => void) {
    const figure: FigureOptions = { ...options, placement: 'Block' };
    this.tagged('Figure', figure, () => {
      this.untagged = true;
      draw();
      this.untagged = false;
    });
  }

  with(style: Style, changes: Partial<Style>): Style {
    return { ...style, ...changes };
  }

  // ── Shapes ──────────────────────────────────────────────────────────────────────────────────────────

  rule(x: number, y: number, width: number, color: string, weight = 0.6) {
    this.doc
      .save()
      .moveTo(x, y)
      .lineTo(x + width, y)
      .lineWidth(weight)
      .strokeColor(color)
      .stroke()
      .restore();
  }

  logo(x: number, y: number, size: number, color: string) {
    const { doc, mark } = this;
    doc
      .save()
      .translate(x, y)
      .scale(size / 40);
    doc.roundedRect(0, 0, 40, 40, 6).fill(color);
    doc.path(mark.d).lineWidth(mark.strokeWidth).lineCap('square').strokeColor('#ffffff').stroke();
    doc.circle(mark.dot.cx, mark.dot.cy, mark.dot.r).fill(mark.dot.fill);
    doc.restore();
  }

  /** The logo and the name beside it, as one Figure whose alt text is the company's name. */
  wordmark(x: number, y: number, dark: boolean) {
    const { c, content } = this;
    const { name, logoTag, displayName } = content.site;
    const nameStyle: Style = {
      family: 'sans',
      weight: 700,
      size: 15,
      color: dark ? c['on-dark'] : c.ink,
      tracking: 0.16,
      upper: true,
    };
    const tagStyle = this.with(this.s.label, {
      color: dark ? c['on-dark-muted'] : c.muted,
      tracking: 0.26,
      size: 6.4,
    });
    const right = x + 41 + Math.max(this.width(name, nameStyle), this.width(logoTag, tagStyle));
    this.figure({ alt: displayName, bbox: [x, y, right, y + 30] }, () => {
      this.logo(x, y, 30, dark ? '#2a6496' : c.blueprint);
      // Evenly tracked capitals, so text extraction reads the name as one word, not "KO RV E L".
      const unkerned = { kern: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];
      this.text(name, nameStyle, x + 40, y + 2, 200, { features: unkerned });
      this.text(logoTag, tagStyle, x + 41, y + 20.5, 200);
    });
  }

  /** A faint blueprint grid, as on the site's drawings. */
  grid(color: string, opacity: number) {
    const { doc } = this;
    doc.save().lineWidth(0.4).strokeColor(color).strokeOpacity(opacity);
    for (let x = 0; x <= A4.width; x += 24) doc.moveTo(x, 0).lineTo(x, A4.height);
    for (let y = 0; y <= A4.height; y += 24) doc.moveTo(0, y).lineTo(A4.width, y);
    doc.stroke().restore();
  }

  darkBackground() {
    const { doc, c } = this;
    const gradient = doc.linearGradient(0, 0, A4.width, A4.height);
    gradient.stop(0, c.ink).stop(1, c['blueprint-deep']);
    doc.rect(0, 0, A4.width, A4.height).fill(gradient);
    this.grid(c['on-dark-muted'], 0.07);
  }

  drawingAt(drawing: Drawing, x: number, y: number, width: number) {
    const { doc, c } = this;
    const scale = width / drawing.width;
    doc.save().translate(x, y).scale(scale);
    for (const path of drawing.paths) {
      if (path.role === 'grid') continue;
      doc.path(path.d);
      if (path.role === 'fill') {
        doc.fillColor(c['on-dark-muted']).fillOpacity(0.12).fill();
        doc.fillOpacity(1);
        continue;
      }
      if (path.dash) doc.dash(path.dash[0], { space: path.dash[1] });
      else doc.undash();
      doc
        .lineWidth(path.width)
        .lineCap('round')
        .lineJoin('round')
        .strokeColor(path.role === 'accent' ? c['on-dark-accent'] : c['on-dark-muted'])
        .stroke();
    }
    doc.undash();
    const label: Style = { family: 'mono', weight: 400, size: drawing.labelSize, color: c['on-dark-muted'] };
    for (const item of drawing.labels) {
      const w = this.width(item.text, label);
      const left = item.anchor === 'middle' ? item.x - w / 2 : item.anchor === 'end' ? item.x - w : item.x;
      this.text(item.text, label, left, item.y, w + 4, { baseline: 'alphabetic', lineBreak: false });
    }
    doc.restore();
  }

  // ── Page furniture ──────────────────────────────────────────────────────────────────────────────────

  page(section?: string) {
    this.doc.addPage({ size: 'A4', margin: 0 });
    this.sections.push(section ?? '');
    this.section = this.doc.struct('Sect');
    this.tree.add(this.section);
    this.doc.markContent('Artifact');
  }

  /** Fails when a page's content passed the bottom of its frame. */
  fits(name: string, y: number, bottom = FRAME.bottom) {
    if (y > bottom) {
      throw new OverflowError(
        `brochure: the "${name}" page overflows its frame by ${Math.ceil(y - bottom)} pt`,
      );
    }
  }

  sectionHeader(number: number, eyebrow: string, title: string, intro?: string): number {
    const { c, s } = this;
    let y = FRAME.top;
    this.doc
      .save()
      .rect(FRAME.left, y + 2.5, 14, 2)
      .fill(c.accent)
      .restore();
    this.text(`${String(number).padStart(2, '0')}  ${eyebrow}`, s.eyebrow, FRAME.left + 22, y, WIDTH);
    y += 20;
    y += this.text(title, s.h1, FRAME.left, y, WIDTH, { tag: 'H2' });
    if (intro) {
      y += 7;
      y += this.text(intro, s.lead, FRAME.left, y, WIDTH);
    }
    return y + 18;
  }

  /** Running header and footer with page numbers, added once every page exists. */
  furniture() {
    const { doc, c, content, s } = this;
    const range = doc.bufferedPageRange();
    const total = range.count;
    const footer = content.t('footer', { name: content.site.displayName, edition: this.edition });
    this.untagged = true;
    for (let i = range.start; i < range.start + total; i++) {
      if (i === 0) continue; // the cover carries its own furniture
      doc.switchToPage(i);
      // Each page was left in an artifact; the running header and footer are pagination artifacts.
      doc.endMarkedContent().markContent('Artifact', { type: 'Pagination' });
      const dark = i === total - 1;
      const muted = dark ? c['on-dark-muted'] : c.muted;
      const label = this.with(s.label, { color: muted });
      if (!dark) {
        this.logo(FRAME.left, 30, 13, c.blueprint);
        this.text(
          content.site.name,
          this.with(label, { color: c.ink, weight: 600 }),
          FRAME.left + 19,
          33.5,
          120,
        );
        const section = this.sections[i] ?? '';
        const w = this.width(section, label);
        this.text(section, label, FRAME.right - w, 33.5, w + 2);
        this.rule(FRAME.left, 52, WIDTH, c.line);
      }
      const y = A4.height - 36;
      doc.save();
      if (dark) doc.strokeOpacity(0.3);
      this.rule(FRAME.left, y - 10, WIDTH, dark ? c['on-dark-muted'] : c.line);
      doc.restore();
      this.text(footer, label, FRAME.left, y, WIDTH - 80);
      const number = `${String(i + 1).padStart(2, '0')} / ${String(total).padStart(2, '0')}`;
      const w = this.width(number, label);
      this.text(number, this.with(label, { color: dark ? c['on-dark'] : c.ink }), FRAME.right - w, y, w + 2);
      doc.endMarkedContent();
    }
    this.untagged = false;
  }

  // ── Pages ───────────────────────────────────────────────────────────────────────────────────────────

  cover() {
    const { c, s, content, drawing } = this;
    const { site, t } = content;
    this.page();
    this.darkBackground();
    this.wordmark(FRAME.left, 56, true);
    let y = 168;
    this.text(
      `${t('cover.kicker')} · ${this.edition}`,
      this.with(s.eyebrow, { color: c['on-dark-accent'] }),
      FRAME.left,
      y,
      WIDTH,
    );
    y += 22;
    y += this.text(t('cover.title'), s.display, FRAME.left, y, 440, { tag: 'H1' });
    y += 14;
    y += this.text(
      content.tagline,
      this.with(s.lead, { size: 12.5, color: c['on-dark-muted'], lineGap: 5 }),
      FRAME.left,
      y,
      400,
    );
    if (drawing) {
      const width = WIDTH + 24;
      const height = (drawing.height / drawing.width) * width;
      const top = Math.max(y + 28, 700 - height);
      const left = FRAME.left - 12;
      const bbox: FigureOptions['bbox'] = [left, top, left + width, top + height];
      this.figure({ alt: t('cover.drawing_alt'), bbox }, () => this.drawingAt(drawing, left, top, width));
      y = top + height;
    }
    this.fits('cover', y, 712);
    const bottom = 738;
    this.doc.save().strokeOpacity(0.3);
    this.rule(FRAME.left, bottom - 12, WIDTH, c['on-dark-muted']);
    this.doc.restore();
    const label = this.with(s.label, { color: c['on-dark-muted'] });
    this.text(
      t('cover.divisions'),
      this.with(label, { color: c['on-dark-accent'] }),
      FRAME.left,
      bottom,
      120,
    );
    this.text(
      content.divisions.map((d) => d.name).join('  ·  '),
      this.with(s.small, { color: c['on-dark'] }),
      FRAME.left,
      bottom + 14,
      WIDTH,
    );
    const place = t('cover.place', { seat: t('firm.seat', { seat: site.seat }), year: site.established });
    this.text(place, this.with(label, { color: c['on-dark-muted'] }), FRAME.left, bottom + 44, WIDTH);
    const url = site.url.replace(/^https:\/\//, '');
    const w = this.width(url, label);
    this.text(url, this.with(label, { color: c['on-dark'] }), FRAME.right - w, bottom + 44, w + 2, {
      link: site.url,
    });
  }

  who(number: number) {
    const { c, s, content } = this;
    const { site, t } = content;
    const section = t('who.eyebrow');
    this.page(section);
    let y = this.sectionHeader(number, section, t('who.title'));
    const facts = [
      { value: String(site.established), label: t('who.facts.founded') },
      { value: String(site.euMarketSince), label: t('who.facts.eu') },
      { value: String(content.divisions.length), label: t('who.facts.divisions') },
      {
        value: String(content.portfolio.projects),
        label: t('who.facts.projects', { count: content.portfolio.countries }),
      },
    ];
    const cell = (WIDTH - 3 * 16) / 4;
    let strip = 0;
    facts.forEach((fact, i) => {
      const x = FRAME.left + i * (cell + 16);
      this.rule(x, y, cell, c.blueprint, 1.2);
      const h = this.text(fact.value, s.figure, x, y + 10, cell);
      strip = Math.max(strip, 10 + h + 4 + this.text(fact.label, s.small, x, y + 14 + h, cell));
    });
    y += strip + 30;

    const leftWidth = 292;
    let left = y;
    content.organization.forEach((paragraph, i) => {
      const style = i === 0 ? this.with(s.lead, { size: 10, lineGap: 3.6, color: c.ink }) : s.body;
      left += this.text(paragraph, style, FRAME.left, left, leftWidth) + 9;
    });
    if (content.initiatives.length) {
      left += 12;
      this.rule(FRAME.left, left, leftWidth, c['line-strong']);
      left += 10;
      left += this.text(t('who.initiatives'), s.eyebrow, FRAME.left, left, leftWidth, { tag: 'H3' }) + 6;
      left += this.text(t('who.initiatives_text'), s.small, FRAME.left, left, leftWidth) + 8;
      for (const initiative of content.initiatives) {
        const link = { link: this.pageUrl(`/initiatives/${initiative.id}`) };
        const h = this.text(initiative.name, s.strong, FRAME.left, left, 70, link);
        left +=
          Math.max(
            h,
            this.text(initiative.descriptor, s.small, FRAME.left + 74, left + 0.4, leftWidth - 74),
          ) + 4;
      }
    }
    const x = FRAME.left + leftWidth + 30;
    const width = FRAME.right - x;
    let right = y;
    right += this.text(t('who.history'), s.eyebrow, x, right, width, { tag: 'H3' }) + 10;
    const first = right;
    let last = right;
    for (const item of content.history) {
      last = right;
      this.text(
        item.year,
        this.with(s.eyebrow, { color: c.blueprint, weight: 600 }),
        x + 14,
        right,
        width - 14,
      );
      right += 13;
      right += this.text(item.text, s.small, x + 14, right, width - 14) + 12;
    }
    this.doc
      .save()
      .moveTo(x + 3, first + 4)
      .lineTo(x + 3, last + 4)
      .lineWidth(0.8)
      .strokeColor(c['line-strong'])
      .stroke()
      .restore();
    for (let i = 0, yy = first; i < content.history.length; i++) {
      this.doc
        .save()
        .circle(x + 3, yy + 4, 3)
        .lineWidth(1)
        .fillAndStroke('#ffffff', c.blueprint)
        .restore();
      yy += 13 + this.height(content.history[i]!.text, s.small, width - 14) + 12;
    }
    this.fits(section, Math.max(left, right));
  }

  services(number: number) {
    const { c, s, content } = this;
    const { t } = content;
    const section = t('services.eyebrow');
    this.page(section);
    let y = this.sectionHeader(number, section, t('services.title'), t('services.text'));
    const cell = (
      service: BrochureContent['services'][number],
      i: number,
      x: number,
      top: number,
      draw: boolean,
    ) => {
      let yy = top;
      if (draw) this.rule(x, yy, HALF, c['line-strong']);
      yy += 9;
      const label = `${String(i + 1).padStart(2, '0')}`;
      if (draw) this.text(label, s.eyebrow, x, yy + 2, 20, { tag: null });
      yy += draw
        ? this.text(service.name, s.h3, x + 22, yy, HALF - 22, { tag: 'H3' })
        : this.height(service.name, s.h3, HALF - 22);
      yy += 4;
      yy += draw ? this.text(service.text, s.body, x, yy, HALF) : this.height(service.text, s.body, HALF);
      yy += 5;
      const deliverables = `${t('services.deliverables')}: ${service.deliverables}`;
      yy += draw ? this.text(deliverables, s.small, x, yy, HALF) : this.height(deliverables, s.small, HALF);
      yy += 4;
      const count = t('services.in_references', { count: service.referenceCount });
      yy += draw
        ? this.text(count, this.with(s.label, { color: c.blueprint }), x, yy, HALF)
        : this.height(count, s.label, HALF);
      return yy - top;
    };
    for (let i = 0; i < content.services.length; i += 2) {
      const pair = content.services.slice(i, i + 2);
      const row = Math.max(...pair.map((service, j) => cell(service, i + j, 0, 0, false)));
      pair.forEach((service, j) => cell(service, i + j, FRAME.left + j * (HALF + GUTTER), y, true));
      y += row + 11;
    }
    this.fits(section, y - 11);
  }

  divisions(number: number) {
    const { c, s, content } = this;
    const { t } = content;
    const section = t('divisions.eyebrow');
    this.page(section);
    let y = this.sectionHeader(number, section, t('divisions.title'), t('divisions.text'));
    const block = (
      division: BrochureContent['divisions'][number],
      i: number,
      x: number,
      top: number,
      draw: boolean,
    ) => {
      let yy = top;
      const put = (value: string, style: Style, left: number, width: number, extra: TextExtra = {}) =>
        draw ? this.text(value, style, left, yy, width, extra) : this.height(value, style, width);
      if (draw) this.rule(x, yy, HALF, c.blueprint, 1.2);
      yy += 9;
      if (draw) this.text(String(i + 1).padStart(2, '0'), s.eyebrow, x, yy + 2, 20, { tag: null });
      const slug = sectors.find((sector) => sector.art === division.id)?.slug ?? division.id;
      yy += put(division.name, s.h3, x + 22, HALF - 22, { link: this.pageUrl(`/${slug}`), tag: 'H3' });
      yy += 4;
      yy += put(division.summary, s.body, x, HALF);
      yy += 6;
      for (const highlight of division.highlights) {
        if (draw)
          this.doc
            .save()
            .rect(x + 1, yy + 3.4, 3, 3)
            .fill(c.accent)
            .restore();
        yy += put(highlight, s.small, x + 11, HALF - 11) + 1.5;
      }
      yy += 4;
      yy += put(
        t('divisions.references', { count: division.referenceCount }),
        this.with(s.label, { color: c.blueprint }),
        x,
        HALF,
      );
      return yy - top;
    };
    for (let i = 0; i < content.divisions.length; i += 2) {
      const pair = content.divisions.slice(i, i + 2);
      const row = Math.max(...pair.map((d, j) => block(d, i + j, 0, 0, false)));
      pair.forEach((d, j) => block(d, i + j, FRAME.left + j * (HALF + GUTTER), y, true));
      y += row + 16;
    }
    this.fits(section, y - 16);
  }

  references(number: number) {
    const { c, s, content } = this;
    const { t } = content;
    const section = t('references.eyebrow');
    this.page(section);
    let y = this.sectionHeader(
      number,
      section,
      t('references.title'),
      t('references.text', { count: content.portfolio.projects }),
    );
    const pad = 11;
    const inner = HALF - 2 * pad;
    const card = (
      ref: BrochureContent['selected'][number],
      x: number,
      top: number,
      height: number | undefined,
    ) => {
      const draw = height !== undefined;
      if (draw) this.doc.save().roundedRect(x, top, HALF, height, 4).fill(c.paper).restore();
      let yy = top + pad;
      const put = (value: string, style: Style, left = x + pad, width = inner, extra: TextExtra = {}) =>
        draw ? this.text(value, style, left, yy, width, extra) : this.height(value, style, width);
      yy += put(ref.divisionName + (ref.deliveredUnderBrand ? '' : ' *'), s.eyebrow) + 4;
      yy += put(ref.title, this.with(s.h3, { size: 10.4 }), x + pad, inner, { tag: 'H3' }) + 2;
      yy += put(`${ref.client}, ${ref.country}`, s.small) + 2;
      const facts = `${ref.year}  ·  ${t('references.duration', { count: ref.durationMonths })}`;
      yy += put(facts, this.with(s.label, { color: c.blueprint })) + 7;
      const outcomeTop = yy;
      yy += put(t('references.outcome'), s.label, x + pad + 9, inner - 9) + 2;
      yy += put(ref.outcome, this.with(s.body, { color: c.ink }), x + pad + 9, inner - 9);
      if (draw)
        this.doc
          .save()
          .rect(x + pad, outcomeTop, 2, yy - outcomeTop - 3)
          .fill(c['accent-bright'])
          .restore();
      yy += 6;
      yy += put(`${t('references.scope')}: ${ref.services.join(', ')}`, s.small);
      return yy + pad - top;
    };
    for (let i = 0; i < content.selected.length; i += 2) {
      const pair = content.selected.slice(i, i + 2);
      const row = Math.max(...pair.map((ref) => card(ref, 0, 0, undefined)));
      pair.forEach((ref, j) => card(ref, FRAME.left + j * (HALF + GUTTER), y, row));
      y += row + 6;
    }
    if (content.selected.some((r) => !r.deliveredUnderBrand)) {
      y += this.text(`* ${t('references.not_under_brand')}`, s.small, FRAME.left, y, WIDTH);
    } else {
      y -= 6;
    }
    const moreUrl = this.pageUrl('/our-references');
    const more = moreUrl.replace(/^https:\/\//, '');
    y += 8;
    y += this.text(more, this.with(s.label, { color: c.blueprint }), FRAME.left, y, WIDTH, {
      link: moreUrl,
    });
    this.fits(section, y);
  }

  method(number: number) {
    const { c, s, content } = this;
    const { t } = content;
    const section = t('method.eyebrow');
    this.page(section);
    let y = this.sectionHeader(number, section, t('method.title'), t('method.text'));
    const phases = t('method.phases', { returnObjects: true }) as unknown as {
      title: string;
      text: string;
      gate: string;
    }[];
    const textX = FRAME.left + 34;
    const gateX = FRAME.left + 344;
    const textWidth = gateX - textX - 20;
    const gateWidth = FRAME.right - gateX;
    const centres: number[] = [];
    phases.forEach((phase) => {
      const top = y;
      centres.push(top + 10);
      let left = top;
      left += this.text(phase.title, s.h3, textX, left, textWidth, { tag: 'H3' }) + 3;
      left += this.text(phase.text, s.body, textX, left, textWidth);
      let right = top + 1;
      right +=
        this.text(
          t('method.gate'),
          this.with(s.label, { color: c.accent }),
          gateX + 14,
          right,
          gateWidth - 14,
        ) + 2;
      right += this.text(phase.gate, s.strong, gateX + 14, right, gateWidth - 14);
      this.doc
        .save()
        .translate(gateX + 4, top + 5)
        .rotate(45)
        .rect(-3.2, -3.2, 6.4, 6.4)
        .fill(c['accent-bright'])
        .restore();
      y = Math.max(left, right) + 9;
    });
    // The phases hang on one line, like instruments on a process line.
    const { doc } = this;
    doc
      .save()
      .moveTo(FRAME.left + 11, centres[0]!)
      .lineTo(FRAME.left + 11, centres[centres.length - 1]!)
      .lineWidth(1)
      .strokeColor(c.blueprint)
      .stroke()
      .restore();
    centres.forEach((centre, i) => {
      doc
        .save()
        .circle(FRAME.left + 11, centre, 11)
        .lineWidth(1)
        .fillAndStroke('#ffffff', c.blueprint)
        .restore();
      const label = String(i + 1).padStart(2, '0');
      const style = this.with(s.eyebrow, { color: c.blueprint, weight: 600, tracking: 0 });
      const w = this.width(label, style);
      this.text(label, style, FRAME.left + 11 - w / 2, centre - 4.2, w + 2, { tag: null });
    });

    y += 4;
    this.rule(FRAME.left, y, WIDTH, c['line-strong']);
    y += 10;
    y += this.text(t('method.standards.title'), s.eyebrow, FRAME.left, y, WIDTH, { tag: 'H3' }) + 10;
    const standards = t('method.standards.items', { returnObjects: true }) as unknown as {
      name: string;
      scope: string;
    }[];
    for (let i = 0; i < standards.length; i += 2) {
      const pair = standards.slice(i, i + 2);
      let row = 0;
      pair.forEach((item, j) => {
        const x = FRAME.left + j * (HALF + GUTTER);
        let yy = y;
        yy += this.text(item.name, s.strong, x, yy, HALF) + 1;
        yy += this.text(item.scope, s.small, x, yy, HALF);
        row = Math.max(row, yy - y);
      });
      y += row + 7;
    }
    this.fits(section, y - 7);
  }

  contact() {
    const { c, s, content } = this;
    const { site, t } = content;
    this.page(t('contact.eyebrow'));
    this.darkBackground();
    this.wordmark(FRAME.left, 56, true);
    let y = 140;
    this.text(
      t('contact.eyebrow'),
      this.with(s.eyebrow, { color: c['on-dark-accent'] }),
      FRAME.left,
      y,
      WIDTH,
    );
    y += 22;
    y += this.text(t('contact.title'), this.with(s.display, { size: 30 }), FRAME.left, y, 420, { tag: 'H2' });
    y += 14;
    y += this.text(
      t('contact.text'),
      this.with(s.lead, { color: c['on-dark-muted'], size: 12 }),
      FRAME.left,
      y,
      420,
    );
    y += 26;

    const bookUrl = this.pageUrl('/contact#book-a-meeting');
    const book = t('common:cta.book');
    const button: Style = { family: 'sans', weight: 600, size: 11, color: '#ffffff' };
    const bw = this.width(book, button) + 36;
    this.doc.save().roundedRect(FRAME.left, y, bw, 34, 4).fill(c.accent).restore();
    // The whole button is one Link: its label, and an annotation over the button rather than the line.
    const link = this.doc.struct('Link');
    link.add(() => {
      this.text(book, button, FRAME.left + 18, y + 11, bw - 36, { tag: null });
      const annotation: PDFKit.Mixins.AnnotationOption & { structParent: PDFKit.PDFStructureElement } = {
        structParent: link,
      };
      this.doc.link(FRAME.left, y, bw, 34, bookUrl, annotation);
    });
    this.tagged('P', {}, [link]);
    const label = this.with(s.label, { color: c['on-dark-muted'] });
    this.text(t('contact.book'), label, FRAME.left + bw + 16, y + 7, 220);
    this.text(
      bookUrl.replace(/^https:\/\//, ''),
      this.with(label, { color: c['on-dark'], tracking: 0.02, upper: false, size: 8 }),
      FRAME.left + bw + 16,
      y + 18,
      260,
      { link: bookUrl },
    );
    y += 34 + 32;

    const value: Style = { family: 'sans', weight: 400, size: 10.5, color: c['on-dark'], lineGap: 3.5 };
    const who = (key: string) => t(`who_are_we:facts.${key}`);
    const { address } = site;
    const rows: { label: string; value: string; link?: string }[][] = [
      [
        {
          label: t('contact.address'),
          value: [
            site.legalName,
            address.street,
            `${address.postalCode} ${t('firm.city', { city: address.city })}`,
            t('firm.country', { country: address.country }),
          ].join('\n'),
        },
        {
          label: who('contact_person'),
          value: t('firm.contact_person', {
            contactPerson: site.contactPerson,
            name: site.contactPerson.split(', ')[0],
          }),
        },
      ],
      [
        { label: who('email'), value: site.email, link: `mailto:${site.email}` },
        { label: who('phone'), value: site.phone, link: `tel:${site.phone.replace(/\s/g, '')}` },
      ],
      [
        { label: t('contact.website'), value: site.url.replace(/^https:\/\//, ''), link: site.url },
        { label: who('registration'), value: site.registrationNumber },
      ],
      [
        {
          label: who('profile'),
          value: who('profile_link'),
          link: site.social.find((p) => p.kind === 'professional-network')?.url,
        },
        { label: who('established'), value: `${site.established}, ${t('firm.seat', { seat: site.seat })}` },
      ],
    ];
    for (const row of rows) {
      this.doc.save().strokeOpacity(0.3);
      this.rule(FRAME.left, y, WIDTH, c['on-dark-muted']);
      this.doc.restore();
      let height = 0;
      row.forEach((cell, j) => {
        const x = FRAME.left + j * (HALF + GUTTER);
        let yy = y + 10;
        yy += this.text(cell.label, label, x, yy, HALF) + 4;
        yy += this.text(cell.value, value, x, yy, HALF, cell.link ? { link: cell.link } : {});
        height = Math.max(height, yy - y);
      });
      y += height + 9;
    }

    // Where each division's page is, for a reader who wants the detail.
    y += 16;
    this.text(
      t('footer:divisions'),
      this.with(s.eyebrow, { color: c['on-dark-accent'] }),
      FRAME.left,
      y,
      WIDTH,
      { tag: 'H3' },
    );
    y += 18;
    const third = (WIDTH - 2 * 16) / 3;
    for (let i = 0; i < content.divisions.length; i += 3) {
      let row = 0;
      content.divisions.slice(i, i + 3).forEach((division, j) => {
        const x = FRAME.left + j * (third + 16);
        const slug = sectors.find((sector) => sector.art === division.id)?.slug ?? division.id;
        const url = this.pageUrl(`/${slug}`);
        let yy = y;
        yy +=
          this.text(division.name, this.with(s.strong, { color: c['on-dark'], size: 9.4 }), x, yy, third, {
            link: url,
          }) + 2;
        yy += this.text(
          url.replace(/^https:\/\//, ''),
          this.with(label, { upper: false, tracking: 0.02, size: 7.4 }),
          x,
          yy,
          third,
          { link: url },
        );
        row = Math.max(row, yy - y);
      });
      y += row + 12;
    }
    this.fits('contact', y - 12);
  }

  async render(): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<void>((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
    this.cover();
    this.who(1);
    this.services(2);
    this.divisions(3);
    this.references(4);
    this.method(5);
    this.contact();
    this.furniture();
    this.doc.end();
    await done;
    return new Uint8Array(Buffer.concat(chunks));
  }
}

/**
 * Renders the brochure to PDF bytes, at the largest running-text size of its language at which every page
 * fits (TEXT_SCALES); past the smallest, the overflow of the last try stops the script.
 */
export async function renderBrochure(content: BrochureContent, options: RenderOptions): Promise<Uint8Array> {
  let overflow: OverflowError | undefined;
  for (const scale of TEXT_SCALES[content.lang]) {
    try {
      return await new Brochure(content, options, scale).render();
    } catch (error) {
      if (!(error instanceof OverflowError)) throw error;
      overflow = error;
    }
  }
  throw overflow!;
}
