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
    const name =
      (path === '/' ? 'home' : path.slice(1).replace(/[/&]/g, '-')) +
      (dialog ? '-dialog' : fold ? '-fold' : '');
    if (dialog) await page.getByRole('button', { name: /Change language/ }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `screenshots/${name}-${width}.png`, fullPage: !fold });
    console.log(`screenshots/${name}-${width}.png`);
  }
  await context.close();
}
await browser.close();
