/**
 * Fonts: every character a page shows is in the site's own cut of IBM Plex (scripts/lib/web-fonts.ts), so no
 * word is set half in Plex and half in whatever fallback face the visitor's system picks. Reads the text of
 * every page outside `<script>`, `<style>` and `<template>`; whitespace and emoji (which no text face
 * carries) are left out.
 */
import type { BuiltSite, Document, Problem } from './site.ts';

type Node = Document['children'][number];

const IGNORED = /[\s\p{Cc}\p{Extended_Pictographic}\u{FE0F}\u{200D}]/u;

const isTemplate = (node: Node) => node.type === 'tag' && node.name === 'template';

function shownText(nodes: readonly Node[], into: string[]): string[] {
  for (const node of nodes) {
    if (node.type === 'text') into.push(node.data);
    else if ('children' in node && node.type !== 'script' && node.type !== 'style' && !isTemplate(node))
      shownText(node.children, into);
  }
  return into;
}

export function checkFonts(site: BuiltSite, covers: (codePoint: number) => boolean): Problem[] {
  const problems: Problem[] = [];
  for (const page of site.pages.values()) {
    const missing = new Map<string, string>();
    // htmlparser2 has decoded the entities, so `&nbsp;` arrives as U+00A0.
    for (const text of shownText(page.document.children, []))
      for (const char of text) {
        if (IGNORED.test(char) || covers(char.codePointAt(0)!) || missing.has(char)) continue;
        const index = text.indexOf(char);
        missing.set(char, text.slice(Math.max(0, index - 20), index + 20).trim());
      }
    for (const [char, context] of missing) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      problems.push({
        page: page.path,
        message: `${code} "${char}" (in "${context}") is not in the site's fonts: add its range to WEB_FONT_RANGES in scripts/lib/web-fonts.ts or write the character another way`,
      });
    }
  }
  return problems;
}
