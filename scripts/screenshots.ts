/**
 * `node scripts/screenshots.ts [path …]`: full-page screenshots at 375 px and 1440 px of a running server
 * (BASE_URL, default the preview on http://127.0.0.1:8888; WIDTHS, default 375,1440) into screenshots/. Pass `--dialog` to capture
 * the language dialog open instead, `--fold` for the first screen only.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.ts';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:8888';
const args = process.argv.slice(2);
const dialog = args.includes('--dialog');
const fold = dialog || args.includes('--fold');
const paths = args.filter((a) => !a.startsWith('--'));
const widths = (process.env.WIDTHS ?? '375,1440').split(',').map(Number);
mkdirSync('screenshots', { recursive: true });

const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
for (const width of widths) {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  await context.addInitScript(() => {
    sessionStorage.setItem('korvel:loader-shown', '1');
    localStorage.setItem('cookies', 'true');
  });
  const page = await context.newPage();
  for (const path of paths.length ? paths : ['/']) {
    await page.goto(new URL(encodeURI(path), base).href, { waitUntil: 'networkidle' });
    await page.evaluate(() =>
      document.querySelectorAll('[data-reveal]').forEach((el) => el.classList.add('is-revealed')),
    );
    // client:visible islands (charts, read-aloud) hydrate only on screen: bring each into view once so the
    // full-page shot shows them drawn, let their code load and their entry animation end, then go back up.
    const lazyIslands = fold ? [] : await page.locator('astro-island[client="visible"]').all();
    for (const island of lazyIslands) await island.scrollIntoViewIfNeeded();
    if (lazyIslands.length) {
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(800);
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    // The query is left out of the file name (a link page's token would make it too long for the disk).
    const pathname = path.split('?')[0]!;
    const name =
      (pathname === '/' ? 'home' : pathname.slice(1).replace(/[/&]/g, '-')) +
      (dialog ? '-dialog' : fold ? '-fold' : '');
    if (dialog) await page.getByRole('button', { name: /Change language/ }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `screenshots/${name}-${width}.png`, fullPage: !fold });
    console.log(`screenshots/${name}-${width}.png`);
  }
  await context.close();
}
await browser.close();
