/**
 * The two cuts of each web font (scripts/lib/web-fonts.ts, issue 38): together exactly the site's characters,
 * never one character in both, and the generated stylesheet tells the browser which file holds which; and the
 * fallback faces that set the text in Plex's sizes until Plex arrives.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fromBuffer } from '@capsizecss/unpack';
import subsetFont from 'subset-font';
import { describe, expect, it } from 'vitest';
import {
  CORE_RANGES,
  EXTENDED_RANGES,
  PLEX_METRICS,
  WEB_FONTS,
  WEB_FONT_RANGES,
  inCoreFonts,
  inWebFonts,
  stylesheet,
} from '../../scripts/lib/web-fonts.ts';

const codePoints = (ranges: readonly (readonly [number, number])[]) =>
  ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
const textOf = (ranges: readonly (readonly [number, number])[]) =>
  String.fromCodePoint(...codePoints(ranges));

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

describe('fallback faces sized to Plex', () => {
  it('carry the metrics of the Plex files that are cut', async () => {
    // Read from the packages' sources as capsize reads any font; the Sans's bold is its variable face at 600.
    const require = createRequire(import.meta.url);
    const source = (font: string) => readFileSync(require.resolve(font));
    const sans = WEB_FONTS[0]!.source;
    const measure = async (file: Buffer) => {
      const { ascent, descent, lineGap, unitsPerEm, xWidthAvg } = await fromBuffer(file);
      return { ascent, descent, lineGap, unitsPerEm, xWidthAvg };
    };
    const { familyName, ...regular } = PLEX_METRICS.sans.regular;
    expect(familyName).toBe(WEB_FONTS[0]!.family);
    expect(await measure(source(sans))).toEqual(regular);
    const bold = await subsetFont(source(sans), textOf(CORE_RANGES), {
      targetFormat: 'sfnt',
      variationAxes: { wght: 600, wdth: 100 },
    });
    const { familyName: _, ...boldMetrics } = PLEX_METRICS.sans.bold;
    expect(await measure(bold)).toEqual(boldMetrics);
    for (const mono of WEB_FONTS.slice(1)) {
      const { familyName: family, ...metrics } = PLEX_METRICS.mono.regular;
      expect(family).toBe(mono.family);
      expect(await measure(source(mono.source))).toEqual(metrics);
    }
  });

  it('put a sized face of each system font between Plex and the generic families', () => {
    const css = stylesheet();
    const faces = [
      ...css.matchAll(/@font-face \{\n {2}font-family: "([^"]+)";\n {2}src: (local[^;]+);\n([^}]*)\}/g),
    ];
    const sansFaces = faces.filter(([, family]) => family!.startsWith('IBM Plex Sans Variable Fallback: '));
    const monoFaces = faces.filter(([, family]) => family!.startsWith('IBM Plex Mono Fallback: '));
    // The Sans: a regular face (400–500) and a bold one (600–700) per system font; Mono: one face each.
    expect(sansFaces.map(([, , src, rest]) => `${src} ${/font-weight: ([\d ]+);/.exec(rest!)?.[1]}`)).toEqual(
      [
        "local('Roboto Regular'), local('Roboto-Regular') 400 500",
        "local('Arial'), local('ArialMT') 400 500",
        "local('Liberation Sans'), local('LiberationSans') 400 500",
        "local('DejaVu Sans'), local('DejaVuSans') 400 500",
        "local('Roboto Bold'), local('Roboto-Bold') 600 700",
        "local('Arial Bold'), local('Arial-BoldMT') 600 700",
        "local('Liberation Sans Bold'), local('LiberationSans-Bold') 600 700",
        "local('DejaVu Sans Bold'), local('DejaVuSans-Bold') 600 700",
      ],
    );
    expect(monoFaces.map(([, family]) => family)).toEqual([
      'IBM Plex Mono Fallback: Courier New',
      'IBM Plex Mono Fallback: Liberation Mono',
      'IBM Plex Mono Fallback: DejaVu Sans Mono',
    ]);
    for (const [, family, , rest] of faces)
      expect(rest, family).toMatch(
        /ascent-override: [\d.]+%;\n {2}descent-override: [\d.]+%;[\s\S]*size-adjust: [\d.]+%;/,
      );
    // A face scaled to Plex's width: Arial (913 of 2048 units a character) to Plex's 451 of 1000.
    const arial = faces.find(([, family, src]) => family!.endsWith(': Arial') && src!.includes("'Arial'"))!;
    expect(arial[3]).toContain(`size-adjust: ${Math.round((451 / 1000 / (913 / 2048)) * 1e6) / 1e4}%;`);

    const stack = (property: string) => new RegExp(`${property}: ([^;]+);`).exec(css)?.[1];
    expect(stack('--font-sans')).toBe(
      "'IBM Plex Sans Variable', " +
        ['Roboto', 'Arial', 'Liberation Sans', 'DejaVu Sans']
          .map((f) => `"IBM Plex Sans Variable Fallback: ${f}"`)
          .join(', ') +
        ", 'IBM Plex Sans', system-ui, -apple-system, 'Segoe UI', sans-serif",
    );
    expect(stack('--font-mono')).toBe(
      "'IBM Plex Mono', " +
        ['Courier New', 'Liberation Mono', 'DejaVu Sans Mono']
          .map((f) => `"IBM Plex Mono Fallback: ${f}"`)
          .join(', ') +
        ", ui-monospace, 'SFMono-Regular', Menlo, monospace",
    );
  });
});
