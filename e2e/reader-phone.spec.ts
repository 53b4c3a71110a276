import { devices, expect, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { extractText } from 'unpdf';
import { DEMO_PASSWORD, signInThroughApi } from './fixtures';
import { POLICY_URL } from './urls';

// The frontline reader (issue 28) on a phone: a nurse finds "hand hygiene" with a typo, reads its first paragraph
// without scrolling, and the QR code on the ward's wall opens the same policy through its stable link.
const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
test.use(pixel);

const FIRST_PARAGRAPH = 'To reduce the spread of infection by the hands of staff.';

test('a reader on a phone searches with a typo, reads without scrolling and follows the QR code', async ({ page }) => {
  await signInThroughApi(page, 'reader@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto('/app/policy_management/1/toc');
  await expect(page.getByRole('heading', { level: 1, name: 'Table of contents' })).toBeVisible();

  // "/" goes to the search box from anywhere on a policy screen.
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search policies' });
  await expect(box).toBeFocused();
  await box.fill('hand hygeine');
  await page.keyboard.press('Enter');
  const result = page.getByRole('link', { name: /Hand hygiene/ }).first();
  await expect(result).toBeVisible();
  await result.click();

  await expect(page.getByRole('heading', { level: 1, name: 'Hand hygiene' })).toBeVisible();
  const paragraph = page.locator('.policy-content p', { hasText: FIRST_PARAGRAPH });
  await expect(paragraph).toBeVisible();
  const view = page.viewportSize()!;
  const box1 = (await paragraph.boundingBox())!;
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(box1.y + box1.height, 'the first paragraph ends inside the first screen').toBeLessThanOrEqual(view.height);
  const documentUrl = new URL(page.url());
  const documentId = documentUrl.pathname.split('/').pop();

  // The QR code of the policy, as printed: drawn by the browser, read back by a QR decoder.
  const svg = await page.request.get(`/api/projects/1/policy-management/qr-sheet?document_id=${documentId}&format=svg`);
  expect(svg.status()).toBe(200);
  const drawing = await page.context().newPage();
  await drawing.setViewportSize({ width: 600, height: 600 });
  await drawing.setContent(`<body style="margin:0;background:#fff">${await svg.text()}</body>`);
  const shot = PNG.sync.read(await drawing.locator('svg').first().screenshot());
  await drawing.close();
  const code = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  expect(code?.data).toMatch(/\/p\/1\/3\.1$/);

  // Followed on the phone, the stable link opens the current version of the same policy.
  await page.goto(new URL(code!.data).pathname);
  await expect(page).toHaveURL(new RegExp(`/app/policy_management/1/documents/${documentId}$`));
  await expect(page.locator('.policy-content p', { hasText: FIRST_PARAGRAPH })).toBeVisible();
});

test.describe('the two-factor reminder', () => {
  // admin@example.com's password is changed by e2e/auth.spec.ts on the demo server: the policy server's admin is left
  // as seeded (no test there changes its password or two-factor).
  test.use({ baseURL: POLICY_URL });

  test('on a phone the two-factor reminder, once dismissed, stays away until the next day', async ({ page }) => {
    // The browser's own day decides (the reminder is the reader's to dismiss); the server's clock is not moved.
    await page.clock.setFixedTime(new Date('2026-12-02T08:00:00'));
    await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await page.goto('/app/policy_management/1/toc');
    const reminder = page.getByRole('status').filter({ hasText: /two-factor authentication will be required/i });
    await expect(reminder).toBeVisible();
    await reminder.getByRole('button', { name: 'Dismiss' }).click();
    await expect(reminder).toBeHidden();

    await page.clock.setFixedTime(new Date('2026-12-02T22:30:00'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Table of contents' })).toBeVisible();
    await expect(reminder).toBeHidden();

    await page.clock.setFixedTime(new Date('2026-12-03T07:00:00'));
    await page.reload();
    await expect(reminder).toBeVisible();
  });
});

test('every printed page of a policy says printed copies are not controlled', async ({ page }) => {
  await signInThroughApi(page, 'reader@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto('/p/1/3.1');
  await expect(page.getByRole('heading', { level: 1, name: 'Hand hygiene' })).toBeVisible();
  await page.goto(`${new URL(page.url()).pathname}/print`);
  await expect(page.locator('.policy-print-sheet')).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  // A narrow paper makes the policy run over several pages.
  const pdf = await page.pdf({ width: '4in', height: '5in' });
  const { totalPages, text } = await extractText(new Uint8Array(pdf));
  expect(totalPages).toBeGreaterThan(1);
  // Only the policy is printed: it starts on the first page, and no page is left without its text.
  expect(text[0]).toContain('Hand hygiene');
  expect(
    text.every((pageText) => pageText.replace(/Printed copies are not controlled\.|Page \d+ of \d+|\s/g, '') !== ''),
  ).toBe(true);
  for (const [index, pageText] of text.entries()) {
    expect(pageText.replace(/\s+/g, ' '), `page ${index + 1}`).toContain('Printed copies are not controlled.');
    expect(pageText.replace(/\s+/g, ' ')).toContain(`Page ${index + 1} of ${totalPages}`);
  }
});
