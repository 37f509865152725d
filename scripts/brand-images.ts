/**
 * `npm run brand-images`: renders the 1200×630 social preview (public/og/korvel.png) from the brand mark,
 * the hero drawing and the footer tagline in the site's own fonts, and the 180×180 touch icon
 * (public/apple-touch-icon.png) from the favicon. Run after changing any of them.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { site } from '../src/site.config.ts';
import { chromiumArgs, chromiumPath } from './chromium.ts';

const fontFile = (name: string) => new URL(`../src/generated/fonts/${name}`, import.meta.url).href;
const drawing = readFileSync(new URL('../src/components/art/PlantHero.astro', import.meta.url), 'utf8')
  .replace(/^---[\s\S]*?---\s*/, '')
  .replace(/class:list=\{[^}]*\}/, 'class="art"');
const favicon = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8');
const { tagline } = JSON.parse(
  readFileSync(new URL('../src/i18n/locales/en/footer.json', import.meta.url), 'utf8'),
);

const html = `<!doctype html><html><head><style>
@font-face { font-family: Plex; src: url(${fontFile('plex-sans.woff2')}); font-weight: 400 700; }
@font-face { font-family: PlexMono; src: url(${fontFile('plex-mono-500.woff2')}); }
body { margin: 0; width: 1200px; height: 630px; display: grid; grid-template-columns: 560px 1fr; align-items: center;
  gap: 40px; padding: 0 64px; box-sizing: border-box; font-family: Plex; color: #0e2230; background: #f7f5f0;
  background-image: linear-gradient(rgb(22 70 110 / .07) 1px, transparent 1px), linear-gradient(90deg, rgb(22 70 110 / .07) 1px, transparent 1px);
  background-size: 24px 24px; }
.brand { display: flex; align-items: center; gap: 18px; } .brand svg { width: 72px; height: 72px; }
.word { font-size: 44px; font-weight: 700; letter-spacing: .16em; } .tag { font-family: PlexMono; font-size: 16px; letter-spacing: .3em; color: #4f6473; }
p { font-size: 30px; line-height: 1.35; margin: 36px 0 0; font-weight: 500; }
.art { width: 100%; color: #16466e; background: #fff; border: 1px solid #d6dcdf; border-radius: 12px; padding: 12px; box-sizing: border-box; }
.art .art-accent { stroke: #c8581c; } .art .art-grid { stroke: #16466e; opacity: .08; } .art .art-fill { fill: #e6eef3; } .art .art-label { fill: #4f6473; }
</style></head><body><div><div class="brand">${favicon}<div><div class="word">${site.name.toUpperCase()}</div><div class="tag">${site.logoTag.toUpperCase()}</div></div></div>
<p>${tagline}</p></div>${drawing}</body></html>`;

mkdirSync(new URL('../public/og/', import.meta.url), { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
// A file page may load the fonts from src/generated (npm run web-fonts); an about:blank page may not.
const file = join(mkdtempSync(join(tmpdir(), 'og-')), 'og.html');
writeFileSync(file, html);
await page.goto(`file://${file}`, { waitUntil: 'load' });
await page.evaluate(() => document.fonts.ready);
await page.screenshot({ path: new URL('../public/og/korvel.png', import.meta.url).pathname });

const icon = await browser.newPage({ viewport: { width: 180, height: 180 } });
await icon.setContent(
  `<body style="margin:0">${favicon.replace('<svg ', '<svg width="180" height="180" ')}</body>`,
);
await icon.screenshot({ path: new URL('../public/apple-touch-icon.png', import.meta.url).pathname });
await browser.close();
console.log('public/og/korvel.png, public/apple-touch-icon.png');
