/**
 * Issue 39: a German visitor meets no English on the forms or the not-found page. Each German form (the contact
 * form, the meeting booking, the footer's newsletter box) is sent empty, then wrong, then with a value only the
 * function refuses (the request is changed in flight, after the browser's own check): every text the form then
 * shows is spell-checked as German (cspell, de-DE and the project's words) and searched for English words. A
 * missing page under /de answers 404 with the German not-found page (netlify.toml's rule, honoured by
 * scripts/preview.ts), while the pages and functions under /de answer as before.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { readSettings, spellCheckDocument } from 'cspell-lib';
import { DESKTOP, expect, expectNoAxeViolations, reachFor, test } from './fixtures.ts';

/** English words a German form must never show (none of them a German word as well); cspell catches the rest. */
const ENGLISH = new Set(
  `the a your you we our us this that it is are be to of for on at with and or not
  enter write pick tick agree check send sending please field fields address message time times
  full company subject topic phone number privacy policy consent
  characters most only before after part valid line accepted highlighted again
  someone requested another offered any more many too network try later sign-ups`.split(/\s+/),
);

/** The words of `text` that are not German: unknown to cspell's de-DE with the project's words, or English. */
async function notGerman(text: string): Promise<string[]> {
  const root = process.cwd();
  const settings = await readSettings(join(root, 'cspell.config.yaml'));
  // A path under src/i18n/locales/de picks the config's German override (de-DE, compounds, German words).
  const uri = pathToFileURL(join(root, 'src/i18n/locales/de/e2e-form-text.txt')).href;
  const result = await spellCheckDocument(
    { uri, text, languageId: 'plaintext', locale: 'de-DE' },
    { generateSuggestions: false, noConfigSearch: true },
    settings,
  );
  const english = text.split(/[^\p{L}-]+/u).filter((word) => ENGLISH.has(word.toLowerCase()));
  return [...result.issues.map((issue) => issue.text), ...english];
}

/** What a form shows a reader: its visible text and the errors tied to its fields. */
const shownText = (form: Locator) => form.evaluate((el: HTMLElement) => el.innerText);

/** Changes one JSON field of the form's next request on its way to `path`, after the browser's own check. */
async function changeInFlight(page: Page, path: string, change: Record<string, unknown>) {
  await page.route(`**${path}`, async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue({ postData: JSON.stringify({ ...body, ...change }) });
  });
}

test.describe('German forms', DESKTOP, () => {
  test('the contact form, sent empty, wrong and refused by the function, speaks only German', async ({
    page,
  }) => {
    // The check itself finds English, or it proves nothing.
    expect(await notGerman('Enter your full name.')).toEqual(expect.arrayContaining(['Enter', 'your']));
    await page.goto('/de/contact');
    const form = page.locator('form[action="/api/contact"]');
    await reachFor(form);
    const send = form.getByRole('button', { name: 'Senden' });
    const summary = form.getByRole('alert');
    const seen: string[] = [];

    await send.click();
    await expect(summary).toContainText('Vor- und Nachname: Geben Sie Ihren Vor- und Nachnamen ein.');
    await expect(form.getByRole('checkbox', { name: /Datenschutzerklärung/ })).toHaveAccessibleDescription(
      'Stimmen Sie der Datenschutzerklärung zu, damit wir Ihre Nachricht speichern dürfen.',
    );
    seen.push(await shownText(form));

    await form.getByLabel('Vor- und Nachname').fill('Jana Weber');
    await form.getByLabel('E-Mail').fill('jana@rheintal');
    await form.getByLabel('Telefonnummer').fill('bitte anrufen');
    await form.getByLabel('Betreff').fill('Reinraumklasse B für eine Abfüllung');
    await form.getByLabel('Nachricht').fill('Wir planen eine aseptische Abfüllung.');
    await send.click();
    await expect(form.getByLabel('E-Mail')).toHaveAccessibleDescription(
      'Der Teil nach dem @ ist keine gültige Domain.',
    );
    await expect(summary).toContainText('Telefonnummer: Geben Sie die Telefonnummer nur mit Ziffern');
    seen.push(await shownText(form));

    // The browser's check passes; the function refuses the address it was sent instead, in German.
    await form.getByLabel('E-Mail').fill('jana@rheintal.example');
    await form.getByLabel('Telefonnummer').fill('+49 621 555 0101');
    await form.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
    await changeInFlight(page, '/api/contact', { email: 'jana.weber' });
    const answer = page.waitForResponse('**/api/contact');
    await send.click();
    expect((await answer).status()).toBe(400);
    await expect(summary).toContainText(
      'E-Mail: Geben Sie die E-Mail-Adresse in der Form name@firma.de ein.',
    );
    seen.push(await shownText(form));

    expect(await notGerman(seen.join('\n'))).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test('the meeting booking, sent empty, wrong and for a time no longer offered, speaks only German', async ({
    page,
  }) => {
    await page.goto('/de/contact#book-a-meeting');
    const booking = page.locator('#book-a-meeting');
    const form = booking.locator('form');
    await expect(form).toBeVisible({ timeout: 15_000 });
    const send = form.getByRole('button', { name: 'Termin anfragen' });
    const summary = form.getByRole('alert');
    const seen: string[] = [];

    await send.click();
    await expect(summary).toContainText('Uhrzeit: Wählen Sie eine Uhrzeit für den Termin.');
    await expect(summary).toContainText('Thema: Geben Sie ein Thema ein.');
    seen.push(await shownText(form));

    await form.getByRole('radio').and(form.locator('input[name="slot"]')).first().check();
    await form.getByLabel('Vor- und Nachname').fill('Jana Weber');
    await form.getByLabel('E-Mail').fill('jana weber@rheintal.example');
    await form.getByLabel('Thema').fill('CCS für eine Abfüllanlage');
    await send.click();
    await expect(form.getByLabel('E-Mail')).toHaveAccessibleDescription(
      'Vor dem @ dürfen keine Leerzeichen, Anführungszeichen oder spitzen Klammern stehen.',
    );
    seen.push(await shownText(form));

    await form.getByLabel('E-Mail').fill('jana@rheintal.example');
    await form.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
    await changeInFlight(page, '/api/contact', { slot: '2020-01-06T08:00:00.000Z' });
    const answer = page.waitForResponse('**/api/contact');
    await send.click();
    expect((await answer).status()).toBe(400);
    await expect(form).toContainText(
      'Diese Uhrzeit wird nicht mehr angeboten. Wählen Sie eine der angezeigten Zeiten.',
    );
    seen.push(await shownText(form));

    expect(await notGerman(seen.join('\n'))).toEqual([]);
  });

  test('the footer’s newsletter box, sent empty, wrong and refused by the function, speaks only German', async ({
    page,
  }) => {
    await page.goto('/de/our-services');
    const footer = page.locator('footer');
    await footer.scrollIntoViewIfNeeded();
    const form = footer.locator('form[action="/api/newsletter"]');
    await reachFor(form);
    const send = form.getByRole('button', { name: 'Abonnieren' });
    const email = form.getByLabel('E-Mail');
    const seen: string[] = [];

    await send.click();
    await expect(email).toHaveAccessibleDescription('Geben Sie Ihre E-Mail-Adresse ein.');
    await expect(form.getByRole('checkbox', { name: /Newsletter/ })).toHaveAccessibleDescription(
      'Setzen Sie das Häkchen, um dem Empfang des Newsletters zuzustimmen.',
    );
    seen.push(await shownText(form));

    await email.fill('jörg@rheintal.example');
    await send.click();
    await expect(email).toHaveAccessibleDescription(
      'Vor dem @ sind nur lateinische Buchstaben ohne Umlaute, Ziffern und . _ - + möglich.',
    );
    seen.push(await shownText(form));

    await email.fill('jana@rheintal.example');
    await form.getByRole('checkbox', { name: /Newsletter/ }).check();
    await changeInFlight(page, '/api/newsletter', { email: 'jana@' });
    const answer = page.waitForResponse('**/api/newsletter');
    await send.click();
    expect((await answer).status()).toBe(400);
    await expect(email).toHaveAccessibleDescription(
      'Geben Sie die E-Mail-Adresse in der Form name@firma.de ein.',
    );
    seen.push(await shownText(form));

    expect(await notGerman(seen.join('\n'))).toEqual([]);
  });
});

test.describe('the German not-found page', () => {
  test('a missing page under /de answers 404 in German, with links that stay German', async ({ page }) => {
    const response = await page.goto('/de/keine-solche-seite/auch-nicht');
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seite nicht gefunden');
    await expect(page.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/de');
    await expect(page.getByRole('link', { name: 'Kontakt aufnehmen' })).toHaveAttribute(
      'href',
      '/de/contact',
    );
    await expectNoAxeViolations(page);
  });

  test('the rule leaves alone what exists under /de, and English paths keep the English page', async ({
    request,
  }) => {
    const german = await request.get('/de/contact');
    expect(german.status()).toBe(200);
    // A function with a path under /de answers before the rule: a broken link is its own German page, not a 404.
    const confirm = await request.get('/de/newsletter/confirm?token=a.b.c');
    expect(confirm.status()).toBe(400);
    expect(await confirm.text()).toContain('Dieser Link ist ungültig');
    const english = await request.get('/no-such-page');
    expect(english.status()).toBe(404);
    expect(await english.text()).toContain('<html lang="en"');
  });
});
