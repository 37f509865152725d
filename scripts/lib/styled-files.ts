/** The files the (English) house style applies to: English content entries and the English locale files. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Changed only with a new version that people agreed to (docs/editing.md), never by a script. */
const LEFT_AS_AGREED = ['src/content/legal/privacy-policy.mdx', 'src/i18n/locales/en/mail.json'];

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * Absolute paths of every .mdx, .yaml and .json file under src/content and src/i18n/locales/en; the German
 * entries in src/content/de follow German typography instead (src/lib/german-style.ts).
 */
export function styledFiles(root: string): string[] {
  const german = join(root, 'src/content/de');
  return ['src/content', 'src/i18n/locales/en']
    .flatMap((dir) => walk(join(root, dir)))
    .filter((path) => /\.(mdx|yaml|json)$/.test(path) && !path.startsWith(`${german}/`))
    .filter((path) => !LEFT_AS_AGREED.some((file) => path.endsWith(file)))
    .sort();
}
