/**
 * The two cuts of each web font (scripts/lib/web-fonts.ts, issue 38): together exactly the site's characters,
 * never one character in both, and the generated stylesheet tells the browser which file holds which.
 */
import { describe, expect, it } from 'vitest';
import {
  CORE_RANGES,
  EXTENDED_RANGES,
  WEB_FONT_RANGES,
  inCoreFonts,
  inWebFonts,
  stylesheet,
} from '../../scripts/lib/web-fonts.ts';

const codePoints = (ranges: readonly (readonly [number, number])[]) =>
  ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));

describe('web font cuts', () => {
  it('split the site characters into a core and an extended cut with nothing in both', () => {
    const core = codePoints(CORE_RANGES);
    const extended = codePoints(EXTENDED_RANGES);
    expect(core.every(inWebFonts)).toBe(true);
    expect(extended.some(inCoreFonts)).toBe(false);
    expect([...core, ...extended].sort((a, b) => a - b)).toEqual(codePoints(WEB_FONT_RANGES));
  });

  it('keep German, Serbian names and the engineering signs in the core cut', () => {
    for (const char of 'äöüÄÖÜß€„“‚‘–—…→ćčđšžĆČĐŠŽΔΩμ₂−≤≥\u202f')
      expect(inCoreFonts(char.codePointAt(0)!), char).toBe(true);
    for (const char of 'ŁőĀ↑') expect(inCoreFonts(char.codePointAt(0)!), char).toBe(false);
  });

  it('give every face of the generated stylesheet the unicode-range of its cut', () => {
    // What writeWebFonts writes as fonts.css (a fresh checkout has none until `npm install` or a build).
    const css = stylesheet();
    const faces = [...css.matchAll(/src: url\('\.\/([\w-]+)\.woff2'\)[^;]*;\s*unicode-range: ([^;]+);/g)];
    expect(faces.map(([, file]) => file)).toEqual([
      'plex-sans',
      'plex-sans-ext',
      'plex-mono-400',
      'plex-mono-400-ext',
      'plex-mono-500',
      'plex-mono-500-ext',
      'plex-sans',
      'plex-sans',
    ]);
    expect(faces[0]![2]).toMatch(/^U\+0020-007E, U\+00A0-00FF, /);
    expect(faces[1]![2]).toMatch(/^U\+0100-0105, /);
    expect(faces.at(-1)![2]).toBe('U+2009, U+200A, U+202F');
  });
});
