/**
 * The drawings a build emits (dist/_astro/*.svg: sector and initiative drawings, article slides, team portraits)
 * go out through SVGO: the sources stay as they were drawn, one element to a line with readable ids and full
 * precision, and the visitor gets the same picture in 14 % fewer compressed bytes (README, "First-visit bytes").
 * Each result is kept in node_modules/.cache/svgo under a hash of the source, SVGO's release and the settings, so
 * a build that meets only known drawings reads files instead of running SVGO (115 drawings: about 3 s of CPU).
 * Run by the korvel integration when `astro build` is done (astro.config.mjs); the file names stay, since Astro's
 * hash names the source and the picture is the same.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { optimize, VERSION, type Config } from 'svgo';
import { writeWhole } from '../../src/lib/write-whole.ts';

/**
 * SVGO's default plugins (viewBox and title kept, as in SVGO 4) over as many passes as still shrink the file,
 * less what changes how edges are drawn: merging paths of one style (where they overlap, the edge is smoothed
 * once instead of twice), turning shapes into paths, and folding a transform into the coordinates of a stroked
 * path. With those, a few hundred pixels along some edges came out a shade lighter or darker. Without them,
 * librsvg draws every drawing to the same pixels (tests/unit/minify-drawings.test.ts) and Chromium 114 of the
 * 115 the site ships (the oil-and-gas drawing: 0.03 % of its pixels along one tank's rim, invisible at 3×),
 * for 14 % fewer compressed bytes.
 */
export const SVGO_CONFIG: Config = {
  multipass: true,
  plugins: [
    {
      name: 'preset-default',
      params: {
        overrides: {
          mergePaths: false,
          convertShapeToPath: false,
          convertPathData: { applyTransformsStroked: false },
        },
      },
    },
  ],
};

/** SVGO's release and settings, as a short hash: a cached result is valid for these. */
const drawingSettings = createHash('sha256')
  .update(`${VERSION} ${JSON.stringify(SVGO_CONFIG)}`)
  .digest('hex')
  .slice(0, 16);

export interface MinifiedDrawings {
  files: number;
  /** How many came from the cache rather than from SVGO in this build. */
  cached: number;
  before: number;
  after: number;
}

/** The drawing SVGO makes of `source`, or `source` itself where SVGO would not make it smaller. */
export function minifyDrawing(source: string): string {
  const { data } = optimize(source, SVGO_CONFIG);
  return Buffer.byteLength(data) < Buffer.byteLength(source) ? data : source;
}

/** Minifies every SVG in `<dist>/_astro` in place. */
export async function minifyDrawings(dist: string, cacheDir: string): Promise<MinifiedDrawings> {
  const folder = join(dist, '_astro');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.svg'));
  await mkdir(cacheDir, { recursive: true });
  const result: MinifiedDrawings = { files: names.length, cached: 0, before: 0, after: 0 };
  for (const name of names) {
    const file = join(folder, name);
    const source = await readFile(file, 'utf8');
    const kept = join(
      cacheDir,
      `${createHash('sha256').update(source).digest('hex')}-${drawingSettings}.svg`,
    );
    let minified = await readFile(kept, 'utf8').catch(() => undefined);
    if (minified === undefined) {
      minified = minifyDrawing(source);
      await writeWhole(kept, minified);
    } else result.cached += 1;
    await writeFile(file, minified);
    result.before += Buffer.byteLength(source);
    result.after += Buffer.byteLength(minified);
  }
  return result;
}
