/**
 * The site's hero drawing (src/components/art/PlantHero.astro) as vector paths for the brochure cover.
 * The art is hand-written SVG with a small vocabulary: <path> elements with a class or stroke attributes
 * and <text class="art-label"> tags, so a few regular expressions read it faithfully.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface DrawingPath {
  d: string;
  role: 'grid' | 'fill' | 'accent' | 'line';
  width: number;
  dash?: [number, number];
}

export interface DrawingLabel {
  x: number;
  y: number;
  text: string;
  anchor: 'start' | 'middle' | 'end';
}

export interface Drawing {
  width: number;
  height: number;
  paths: DrawingPath[];
  labels: DrawingLabel[];
  /** Font size of the labels in drawing units. */
  labelSize: number;
}

const attribute = (source: string, name: string) =>
  new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(source)?.[1];

const entities = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Reads the drawing, or returns undefined when the file is gone (the cover then shows no drawing). */
export function readDrawing(file: string): Drawing | undefined {
  if (!existsSync(file)) return undefined;
  const source = readFileSync(file, 'utf8');
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(source);
  if (!viewBox) return undefined;
  const paths: DrawingPath[] = [];
  for (const [, attrs = ''] of source.matchAll(/<path\s([^>]*?)\/?>/g)) {
    const d = attribute(attrs, 'd');
    if (!d) continue;
    const className = attribute(attrs, 'class') ?? '';
    const dash = attribute(attrs, 'stroke-dasharray')
      ?.split(/[\s,]+/)
      .map(Number);
    paths.push({
      d,
      role: className.includes('art-grid')
        ? 'grid'
        : className.includes('art-fill')
          ? 'fill'
          : className.includes('art-accent')
            ? 'accent'
            : 'line',
      width: Number(attribute(attrs, 'stroke-width') ?? 1),
      ...(dash && dash.length === 2 ? { dash: dash as [number, number] } : {}),
    });
  }
  const group = /<g\s([^>]*)>/.exec(source)?.[1] ?? '';
  const defaultAnchor = (attribute(group, 'text-anchor') ?? 'start') as DrawingLabel['anchor'];
  const labels: DrawingLabel[] = [];
  for (const [, attrs = '', body = ''] of source.matchAll(/<text\s([^>]*)>([\s\S]*?)<\/text>/g)) {
    labels.push({
      x: Number(attribute(attrs, 'x')),
      y: Number(attribute(attrs, 'y')),
      text: entities(body.trim()),
      anchor: (attribute(attrs, 'text-anchor') ?? defaultAnchor) as DrawingLabel['anchor'],
    });
  }
  if (paths.length === 0) return undefined;
  return {
    width: Number(viewBox[1]),
    height: Number(viewBox[2]),
    paths,
    labels,
    labelSize: Number(attribute(group, 'font-size') ?? 9),
  };
}
