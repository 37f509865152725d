/**
 * Astro's sharp image service with one rule on top: a derived image is never larger than the file it replaces.
 * When a local image is asked for in another format (an SVG drawing as AVIF or WebP, a PNG as WebP), the
 * service encodes that format at the largest width the page asks for, and if it comes out larger than the
 * source, the whole request keeps the source's format: an SVG is then served as itself (one file for
 * every width, since it scales), a raster as a resized copy in its own format. `<Picture>` writes the
 * `<source type>` from the format the service settled on, so the markup says what is served. The line
 * drawings of the sectors and initiatives are such a case: 21 kB of SVG became a 61 kB WebP.
 * The `images` gate over dist/ (scripts/lib/dist-checks/images.ts) fails a build that still has one.
 *
 * A drawing is weighed as it ships, through SVGO (scripts/lib/minify-drawings.ts). Each verdict is kept in
 * src/assets/image-sizes.json under a hash of the source's bytes, the request and sharp's version (SVGO only
 * ever shrinks a drawing, so a "larger" verdict holds whatever its release; a "smaller" one that no longer
 * holds fails the `images` gate): the trial encode (an AVIF of a drawing at 1,600 px takes about 1.8 s)
 * then runs once per image and sharp release, not in every build (issue 26: 28 of the build's 31 s of page
 * rendering waited for these encodes). The file is committed like a lockfile, so a fresh clone builds without
 * them too; a build that meets a new image or another sharp adds its verdicts, to be committed with the image.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AstroConfig, ImageMetadata, ImageTransform, LocalImageService } from 'astro';
import sharp from 'astro/assets/services/sharp';
import { minifyDrawing } from '../../scripts/lib/minify-drawings.ts';
import { sourceCandidates } from './image-sources.ts';
import { writeWholeSync } from './write-whole.ts';

type ImageConfig = AstroConfig['image'];
type Logger = Parameters<NonNullable<LocalImageService['validateOptions']>>[2];
type Options = ImageTransform & { src: ImageMetadata };

/**
 * The source's bytes: the file in src/ with the image's name, format and size; of several alike (drawings
 * named 1.svg in many articles), the smallest, so a derived image that passes is smaller than any of them.
 */
async function sourceBytes(src: ImageMetadata): Promise<Buffer | undefined> {
  const candidates = sourceCandidates(src.src, join(process.cwd(), 'src'));
  let smallest: Buffer | undefined;
  for (const file of candidates) {
    if (!file.toLowerCase().endsWith(src.format === 'jpg' ? 'jpg' : src.format)) continue;
    const bytes = await readFile(file);
    if (!smallest || bytes.byteLength < smallest.byteLength) smallest = bytes;
  }
  return smallest;
}

/** A local image's metadata (an imported SVG is a component function carrying it), not a remote URL. */
const isLocal = (src: unknown): src is ImageMetadata =>
  (typeof src === 'object' || typeof src === 'function') && src !== null && 'format' in src && 'src' in src;

const decisions = new Map<string, Promise<boolean>>();

const verdictFile = join(process.cwd(), 'src', 'assets', 'image-sizes.json');

/** Verdicts of earlier builds: key → whether the derived images came out smaller. */
function readVerdicts(): Record<string, boolean> {
  try {
    return JSON.parse(readFileSync(verdictFile, 'utf8')) as Record<string, boolean>;
  } catch {
    return {};
  }
}
let verdicts: Record<string, boolean> | undefined;

/** sharp's release (it pins libvips and the encoders, which decide the sizes), read where Astro installed it. */
const sharpVersion = (() => {
  try {
    const manifest = join(process.cwd(), 'node_modules', 'sharp', 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

/**
 * Adds a verdict to the file, re-read first so that builds side by side keep each other's; written whole, one
 * verdict a line in key order, so that a commit shows only the ones added.
 */
function storeVerdict(key: string, smaller: boolean): void {
  verdicts = { ...readVerdicts(), ...verdicts, [key]: smaller };
  const sorted = Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => (a < b ? -1 : 1)));
  mkdirSync(dirname(verdictFile), { recursive: true });
  writeWholeSync(verdictFile, `${JSON.stringify(sorted, null, 2)}\n`);
}

/**
 * Whether the images this request derives come out smaller than the source, judged by the largest of them
 * (its own size or the widest srcset entry): a raster's bytes grow with its width. One encode per source and
 * format; the `images` gate checks every derived file of the build.
 */
function derivedAreSmaller(options: Options, imageConfig: ImageConfig, logger: Logger): Promise<boolean> {
  const key = JSON.stringify([
    options.src.src,
    options.format,
    options.quality,
    options.width,
    options.widths,
  ]);
  let decision = decisions.get(key);
  if (!decision) {
    decision = (async () => {
      const source = await sourceBytes(options.src);
      if (!source) return true;
      const srcset = (await sharp.getSrcSet?.(options, imageConfig, logger)) ?? [];
      const widest = [options, ...srcset.map((entry) => entry.transform)].reduce((a, b) =>
        (b.width ?? 0) > (a.width ?? 0) ? b : a,
      );
      const request = { ...widest, src: options.src.src };
      const stored = createHash('sha256')
        .update(source)
        .update(
          JSON.stringify([sharpVersion, request.format, request.quality, request.width, request.height]),
        )
        .digest('hex');
      verdicts ??= readVerdicts();
      if (stored in verdicts) return verdicts[stored]!;
      const { data } = await sharp.transform(source, request, imageConfig, logger);
      // A drawing ships through SVGO (scripts/lib/minify-drawings.ts): a derived image has to beat that.
      const shipped =
        options.src.format === 'svg'
          ? Buffer.byteLength(minifyDrawing(source.toString('utf8')))
          : source.byteLength;
      const smaller = data.byteLength <= shipped;
      storeVerdict(stored, smaller);
      return smaller;
    })();
    decisions.set(key, decision);
  }
  return decision;
}

const service: LocalImageService = {
  ...sharp,
  async validateOptions(options, imageConfig, logger) {
    const validated = (await sharp.validateOptions!(options, imageConfig, logger)) as Options;
    const src = validated.src;
    if (!isLocal(src)) return validated;
    const own = src.format === 'jpeg' ? 'jpg' : src.format;
    const format = validated.format === 'jpeg' ? 'jpg' : validated.format;
    if (format === own || format === 'svg') return validated;
    if (!(await derivedAreSmaller(validated, imageConfig, logger))) validated.format = own;
    return validated;
  },
  async getSrcSet(options, imageConfig, logger) {
    const entries = (await sharp.getSrcSet?.(options, imageConfig, logger)) ?? [];
    const src = options.src as Options['src'];
    // An SVG served as itself is one file at every width: the srcset names it once per width.
    if (options.format !== 'svg' || !isLocal(src) || src.format !== 'svg') return entries;
    return entries.map((entry) => ({
      ...entry,
      transform: { ...entry.transform, width: options.width, height: options.height },
    }));
  },
};

export default service;
