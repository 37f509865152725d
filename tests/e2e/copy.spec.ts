import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DESKTOP, expect, test } from './fixtures.ts';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** Visible text of a built page, without the language dialog (whose "Coming soon" labels SPEC asks for). */
function visibleText(html: string): string {
  return html
    .replace(/<dialog[\s\S]*?<\/dialog>/g, ' ')
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
}

// It reads files, not the viewport: the desktop project runs it.
test('no built page shows placeholder copy', DESKTOP, () => {
  const pages = htmlFiles('dist');
  expect(pages.length).toBeGreaterThan(40);
  const found = pages.flatMap((file) => {
    const match = /lorem ipsum|\bTODO\b|placeholder|coming soon|\bTBD\b/i.exec(
      visibleText(readFileSync(file, 'utf8')),
    );
    return match ? [`${file}: "${match[0]}"`] : [];
  });
  expect(found).toEqual([]);
});
