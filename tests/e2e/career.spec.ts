import { site } from '../../src/site.config.ts';
import { expect, message, test } from './fixtures.ts';

interface Question {
  '@type': string;
  name: string;
  acceptedAnswer: { '@type': string; text: string };
}

test('/career states the practice, the interview rounds and how to apply', async ({ page }) => {
  await page.goto('/career');
  await expect(page.getByRole('heading', { level: 2, name: message('career:practice.title') })).toBeVisible();
  const main = page.locator('main');
  await expect(main).toContainText('from three months');
  await expect(main).toContainText('two to three rounds');
  await expect(main).toContainText('Only shortlisted candidates are contacted');
  await expect(page.locator('#apply a[href="mailto:' + site.careersEmail + '"]')).toBeVisible();
  await expect(page.locator('#apply a[href="/privacy-policy"]')).toBeVisible();
});

test('the career FAQ opens and closes from the keyboard', async ({ page }) => {
  await page.goto('/career');
  const items = page.locator('details.faq__item');
  const first = items.nth(0);
  const second = items.nth(1);
  // Tab from the last link before the FAQ reaches the first question.
  await page.locator('#apply a[href="/privacy-policy"]').focus();
  await page.keyboard.press('Tab');
  await expect(first.locator('summary')).toBeFocused();
  await expect(first.locator('p')).toBeHidden();

  await page.keyboard.press('Enter');
  await expect(first).toHaveAttribute('open', '');
  await expect(first.locator('p')).toBeVisible();

  // The open answer holds no link, so the next Tab goes to the next question; Space opens it too.
  await page.keyboard.press('Tab');
  await expect(second.locator('summary')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(second.locator('p')).toBeVisible();

  await page.keyboard.press('Enter');
  await expect(second).not.toHaveAttribute('open');
  await expect(second.locator('p')).toBeHidden();
});

test('the FAQPage data matches the questions and answers on the page', async ({ page }) => {
  await page.goto('/career');
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const faqPages = blocks
    .map((text) => JSON.parse(text) as { '@context'?: string; '@type'?: string; mainEntity?: Question[] })
    .filter((data) => data['@type'] === 'FAQPage');
  expect(faqPages).toHaveLength(1);
  const [faq] = faqPages;
  expect(faq!['@context']).toBe('https://schema.org');

  const visible = await page.locator('details.faq__item').evaluateAll((details) =>
    details.map((item) => ({
      question: item.querySelector('summary')?.textContent?.trim() ?? '',
      answer: item.querySelector('p')?.textContent?.trim() ?? '',
    })),
  );
  expect(visible.length).toBeGreaterThanOrEqual(6);
  expect(faq!.mainEntity).toEqual(
    visible.map(({ question, answer }) => ({
      '@type': 'Question',
      name: question,
      acceptedAnswer: { '@type': 'Answer', text: answer },
    })),
  );
});
