import { type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { WORKFLOW_MAIL_URL, WORKFLOW_URL } from './urls';

// One policy through the whole workflow on the demo facility (issue 7), each person signed in as themselves in a
// browser of their own: the author writes it, both Nursing reviewers approve, the signer signs with their password,
// and a reader attests the published version. Its own server: it changes the demo manual.
test.use({ baseURL: WORKFLOW_URL });
test.describe.configure({ mode: 'serial', timeout: 480_000 });

const APP = '/app/policy_management/1';
const TITLE = 'Visitor hand hygiene';

async function signedInPage(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: WORKFLOW_URL });
  const page = await context.newPage();
  // Through the API: the sign-in form has its own tests (auth.spec.ts).
  await signInThroughApi(page, email, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
  return { page, close: () => context.close() };
}

/** The person's "My tasks" page, then the task's link in the given list. */
async function openTask(page: Page, list: string) {
  await page.goto(APP);
  const section = page.getByRole('region', { name: list });
  await section.getByRole('link', { name: new RegExp(TITLE) }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(TITLE) })).toBeVisible();
}

const panel = (page: Page) => page.getByRole('region', { name: /review and sign-off/i });

test('a policy goes from draft through review and signature to publication and a reader attests it', async ({
  browser,
}) => {
  // The author (the policy administrator) writes a new policy for Nursing.
  const author = await signedInPage(browser, 'admin@example.com');
  await author.page.goto(`${APP}/toc`);
  await author.page.getByRole('button', { name: 'New policy' }).click();
  const create = author.page.getByRole('dialog');
  await create.getByLabel('Title').fill(TITLE);
  await create.getByRole('combobox', { name: 'Department' }).click();
  await author.page.getByRole('option', { name: /^Nursing/ }).click();
  await create.getByRole('button', { name: 'Create and edit' }).click();
  await expect(author.page).toHaveURL(/\/documents\/\d+\/edit$/);
  await author.page.locator('.ProseMirror').click();
  await author.page.keyboard.type('Visitors clean their hands when they enter and leave a patient room.');
  await expect(author.page.getByText(/All changes saved at/)).toBeVisible({ timeout: 30_000 });
  await author.page.getByRole('button', { name: 'Done' }).click();
  await expect(author.page).toHaveURL(/\/documents\/\d+$/);

  await author.page.getByRole('button', { name: 'Send for review' }).click();
  const send = author.page.getByRole('dialog');
  await send.getByLabel('Comment for the reviewers').fill('New policy after the visitor survey.');
  await send.getByRole('button', { name: 'Send for review' }).click();
  await expect(panel(author.page).getByText('In review').first()).toBeVisible();
  await expect(author.page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousA11yViolations(author.page);

  // The reviewer finds it among their tasks and approves it; so does the second Nursing reviewer (the admin).
  const reviewer = await signedInPage(browser, 'reviewer@example.com');
  await openTask(reviewer.page, 'To review');
  await reviewer.page.getByRole('button', { name: 'Approve' }).click();
  await reviewer.page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(reviewer.page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await reviewer.close();

  await author.page.reload();
  await author.page.getByRole('button', { name: 'Approve' }).click();
  await author.page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(panel(author.page).getByText('Pending signature').first()).toBeVisible();

  // The signer signs with their password: the policy is published with its signature manifest.
  const signer = await signedInPage(browser, 'member@example.com');
  await openTask(signer.page, 'To sign');
  await signer.page.getByRole('button', { name: 'Sign', exact: true }).click();
  const sign = signer.page.getByRole('dialog');
  await sign.getByRole('textbox', { name: 'Password' }).fill('not my password');
  await sign.getByRole('button', { name: 'Sign version 1' }).click();
  await expect(sign.getByText('The password is incorrect.')).toBeVisible();
  await sign.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
  await sign.getByRole('button', { name: 'Sign version 1' }).click();
  await expect(signer.page.getByText('Published', { exact: true }).first()).toBeVisible();
  await signer.page.getByRole('button', { name: 'Signatures (1)' }).click();
  const manifest = signer.page.getByRole('table', { name: /Signatures of/ }).first();
  await expect(manifest).toContainText('Morgan Member');
  await expect(manifest).toContainText('Password');
  await expect(signer.page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousA11yViolations(signer.page);
  await signer.close();

  // A reader reads it and attests it; the attestation shows at once.
  const reader = await signedInPage(browser, 'reader@example.com');
  await openTask(reader.page, 'To read');
  await reader.page.getByRole('button', { name: 'I have read and understood this policy' }).click();
  await expect(reader.page.getByText(/You attested version 1/)).toBeVisible();
  await reader.page.goto(APP);
  await expect(
    reader.page.getByRole('region', { name: 'To read' }).getByRole('link', { name: new RegExp(TITLE) }),
  ).toHaveCount(0);
  await reader.close();

  // The reviewers were told by email, and the author sees the reader in the attestation report.
  // Delivered by the outbox worker, a moment after each step committed.
  await expect(async () => {
    const mail = (await (await fetch(WORKFLOW_MAIL_URL)).json()) as { to: string[]; subject: string }[];
    const got = (to: string, subject: string) => mail.some((m) => m.to.includes(to) && m.subject === subject);
    expect(got('reviewer@example.com', `Policy to review: ${TITLE}`)).toBe(true);
    expect(got('reader@example.com', `Policy to read: ${TITLE}`)).toBe(true);
  }).toPass({ timeout: 15_000 });
  await author.page.reload();
  await author.page.getByRole('tab', { name: 'Readers' }).click();
  await expect(author.page.getByRole('row', { name: /Robin Reader/ })).toContainText(/Read|attested/i);
  await author.close();
});
