/**
 * The YAML front matter of a content file, read once per process while the file stays as it was. Before a
 * build, the brochures (English and German, each for its edition date) and the newsletter's article index
 * read the front matter of every article: at 1,000 extra articles three passes of YAML took 1.5–2 s of the
 * build (README, "Build at scale"). The answer is frozen, as every reader shares it.
 *
 * A build holds this module twice: loaded by Node for the config's pre-build steps, and bundled into the
 * pages, where the social cards read each entry's drawing (src/pages/_cards.ts). The memory lives on
 * `globalThis` so that both copies share it and the pages find every article already read.
 *
 * Read with js-yaml, the parser Astro's content layer reads the same front matter with, under its core schema
 * (dates stay strings, as with `yaml`): for 1,000 articles 60 ms against 590 ms with `yaml`, whose document
 * model the Content tab and the content lint need for editing and for line numbers, and this reader does not.
 */
import { readFileSync, statSync } from 'node:fs';
import { CORE_SCHEMA, load } from 'js-yaml';
import { frozen } from '../../src/lib/frozen.ts';

const memory = Symbol.for('korvel.front-matter');

export type FrontMatter = Readonly<Record<string, unknown>>;

type Read = Map<string, { stamp: string; data: FrontMatter | undefined }>;
const shared = globalThis as { [memory]?: Read };
const read = (shared[memory] ??= new Map());

/** The parsed block between a file's opening `---` lines; undefined when it has none. */
export function frontMatterOf(file: string): FrontMatter | undefined {
  const { mtimeMs, size } = statSync(file);
  const stamp = `${mtimeMs}:${size}`;
  const known = read.get(file);
  if (known?.stamp === stamp) return known.data;
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'))?.[1];
  const data =
    block === undefined
      ? undefined
      : frozen((load(block, { schema: CORE_SCHEMA }) ?? {}) as Record<string, unknown>);
  read.set(file, { stamp, data });
  return data;
}
