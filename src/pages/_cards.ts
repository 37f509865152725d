/** What each indexable page's social card shows: title, section and the page's drawing (src/server/og). */
import { getCollection, getEntry } from 'astro:content';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { getT } from '../i18n/index.ts';
import { divisionLabelKey } from '../lib/search.ts';
import { isIndexable, routes } from '../routes.ts';
import type { CardInput } from '../server/og/card.ts';

const homeDrawing = join(process.cwd(), 'src/assets/home/plant-section.svg');

/**
 * The source SVG of an entry's drawing. In a build the image is already an emitted asset, so the path comes
 * from the entry's own front matter (`image.src`, or the first of `images`), relative to its file.
 */
function drawingOf(entry: { id: string; filePath?: string }): string {
  if (!entry.filePath) throw new Error(`Social card: entry ${entry.id} has no file`);
  const file = join(process.cwd(), entry.filePath);
  const front = parse(/^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '') as {
    image?: { src: string };
    images?: Array<{ src: string }>;
  };
  const src = front.image?.src ?? front.images?.[0]?.src;
  if (!src) throw new Error(`Social card: ${entry.filePath} names no drawing`);
  return resolve(dirname(file), src);
}

/** One card per indexable route of src/routes.ts. */
export async function socialCards(): Promise<CardInput[]> {
  const t = await getT();
  const cards: CardInput[] = [];
  for (const route of routes.filter((r) => isIndexable(r.path))) {
    const { path, entry } = route;
    if (route.copy) {
      const copy = route.copy;
      const drawing = path === '/' ? homeDrawing : undefined;
      cards.push({ path, title: t(`${copy}.title`), section: t(`${copy}.eyebrow`), drawing });
    } else if (entry?.collection === 'blog' || entry?.collection === 'news') {
      const article = await getEntry(entry.collection, entry.id);
      if (!article) throw new Error(`Social card: no ${entry.collection} entry ${entry.id}`);
      const { title, discipline } = article.data;
      const list = t(`${entry.collection}:page.eyebrow`);
      cards.push({ path, title, section: `${list} · ${discipline}`, drawing: drawingOf(article) });
    } else if (entry?.collection === 'sectors' || entry?.collection === 'initiatives') {
      const page = (await getCollection(entry.collection)).find((e) => e.id === entry.id);
      if (!page) throw new Error(`Social card: no ${entry.collection} entry ${entry.id}`);
      const { title, eyebrow } = page.data;
      cards.push({ path, title, section: eyebrow, drawing: drawingOf(page) });
    } else if (entry?.collection === 'references') {
      // A case study: "References · <division>" over its division's drawing.
      const reference = await getEntry('references', entry.id);
      const sector = reference && (await getEntry('sectors', reference.data.division));
      if (!reference || !sector) throw new Error(`Social card: no reference or division for ${path}`);
      const section = `${t('references:page.eyebrow')} · ${t(divisionLabelKey(reference.data.division))}`;
      cards.push({ path, title: reference.data.title, section, drawing: drawingOf(sector) });
    } else if (entry?.collection === 'legal') {
      const page = await getEntry('legal', entry.id);
      if (!page) throw new Error(`Social card: no legal entry ${entry.id}`);
      cards.push({ path, title: page.data.title, section: page.data.eyebrow });
    } else {
      throw new Error(`Social card: nothing to draw for ${path}`);
    }
  }
  return cards;
}
