// @vitest-environment jsdom
/**
 * Every existing article and news item through the Content tab's rich-text editor (BodyEditor, MDXEditor) in
 * jsdom: the text opens without the editor reporting an error, keeps its components, headings and table rows,
 * and what the editor makes of it is stable — its Markdown, opened again, gives the same Markdown. The Content
 * tab saves the file's own text while the editor's Markdown equals what it made of the text as loaded
 * (PieceEditor's `currentBody`), so an opened and saved piece is byte-identical (tests/unit/content-pieces.test.ts
 * proves the front matter and the file's joins).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MDXEditorMethods } from '@mdxeditor/editor';
import { act, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, test, vi } from 'vitest';
import { BodyEditor } from '../../src/components/islands/admin/content/BodyEditor.tsx';
import type { ContentCopy } from '../../src/components/islands/admin/copy.ts';
import { splitSource } from '../../src/server/content/pieces.ts';

vi.mock('@mdxeditor/editor/style.css?url', () => ({ default: '/editor.css' }));
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const copy = new Proxy({}, { get: (_, key) => String(key) }) as ContentCopy;
const pieces = ['src/content/blog', 'src/content/news', 'src/content/de/blog', 'src/content/de/news'].flatMap(
  (dir) =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.mdx'))
      .map((file) => join(dir, file)),
);

/** Opens `markdown` in the editor; answers its Markdown and the errors it reported. */
async function open(markdown: string) {
  const ref = createRef<MDXEditorMethods>();
  const errors: string[] = [];
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <BodyEditor
        ref={ref}
        markdown={markdown}
        copy={copy}
        label="Text"
        onChange={() => {}}
        onError={(message) => errors.push(message)}
        uploadImage={async () => ''}
        previewImage={async (src) => src}
      />,
    );
  });
  const exported = ref.current?.getMarkdown() ?? '';
  act(() => root.unmount());
  container.remove();
  return { exported, errors };
}

describe.each(pieces)('%s', (file) => {
  test('opens in the editor without an error, and the editor’s Markdown is stable', async () => {
    const { body } = splitSource(readFileSync(file, 'utf8'));
    const first = await open(body);
    expect(first.errors).toEqual([]);
    expect(first.exported.trim().length).toBeGreaterThan(100);
    const again = await open(first.exported);
    expect(again.errors).toEqual([]);
    expect(again.exported).toBe(first.exported);
    // Nothing is lost on the way: the site's components and the headings are all still there.
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    for (const pattern of [/<(Email|Phone|ComparisonTable)\b/g, /^#{2,4} /gm, /^\|/gm])
      expect(count(first.exported, pattern), String(pattern)).toBe(count(body, pattern));
  });
});
