import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, signInThroughApi } from './fixtures';
import { POLICY_URL } from './urls';

// The XSS corpus (packages/server/test/xss-corpus.ts, 500+ payloads) stored through the API into every kind of rich
// text, then rendered on the real screens in Chromium with a page hook that records every script execution:
// `__xss(N)` (what each payload calls), alert/confirm/prompt/print, CSP violations of script and frame rules, requests
// to the payloads' external host, and navigations away. Any record fails the test.
//
// The policy management server: its own tests never look at monitoring, the generator, standards or the terms, and
// the new policy documents here have titles of their own. The terms are global: only a draft is saved (rendered in
// the editor's preview and the history), the public page is fed that stored draft through a route, and the draft
// that was there before is put back at the end.
test.use({ baseURL: POLICY_URL });
test.setTimeout(180_000);

interface XssPayload {
  id: number;
  kind: string;
  html: string;
}
interface Corpus {
  XSS_CORPUS: readonly XssPayload[];
  xssBatches(size: number, payloads?: readonly XssPayload[]): XssPayload[][];
  xssBlock(p: XssPayload): string;
}

// Loaded at run time: the corpus lives with the server's test helpers, outside this folder's TypeScript project.
const CORPUS_MODULE = '../packages/server/test/xss-corpus';
const loadCorpus = () => import(CORPUS_MODULE) as Promise<Corpus>;

/** Installed before any page script: records what a payload would do if it ran. */
function installHook() {
  const w = window as unknown as { __xssHits: string[] };
  const local: string[] = [];
  w.__xssHits = local;
  // A payload inside a frame calls top.__xss: it lands in the top window's list.
  const record = (what: string) => {
    try {
      (window.top as unknown as { __xssHits: string[] }).__xssHits.push(what);
    } catch {
      local.push(what);
    }
    if (window.top !== window) local.push(what);
  };
  Object.defineProperty(window, '__xss', { value: (n: unknown) => record(`__xss(${String(n)})`) });
  window.alert = (m?: unknown) => record(`alert(${String(m)})`);
  window.confirm = (m?: unknown) => {
    record(`confirm(${String(m)})`);
    return false;
  };
  window.prompt = (m?: unknown) => {
    record(`prompt(${String(m)})`);
    return null;
  };
  window.print = () => record('print()');
  document.addEventListener(
    'securitypolicyviolation',
    (e) => {
      // Pictures and styles from elsewhere are allowed content that the CSP keeps out; script, frames, objects,
      // forms and base URLs must never get as far as the CSP.
      if (/^(img|style|font|media)-src/.test(e.effectiveDirective)) return;
      record(`csp ${e.effectiveDirective} ${e.blockedURI} ${e.sample}`);
    },
    true,
  );
}

/** Watches a page: dialogs, requests to the payloads' host, and the main frame leaving `expectedPath`. */
function watch(page: Page) {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  page.on('request', (request) => {
    const url = request.url();
    const type = request.resourceType();
    if (/^(?:javascript|vbscript|data:text\/html)/i.test(url)) events.push(`request ${type} ${url.slice(0, 80)}`);
    if (url.includes('xss.invalid') && type !== 'image' && type !== 'media') {
      events.push(`request ${type} ${url}`);
    }
  });
  page.on('popup', (popup) => events.push(`popup ${popup.url()}`));
  return events;
}

async function hits(page: Page): Promise<string[]> {
  const all: string[] = [];
  for (const frame of page.frames()) {
    const list = await frame
      .evaluate(() => (window as unknown as { __xssHits?: string[] }).__xssHits ?? [])
      .catch(() => [] as string[]);
    all.push(...list);
  }
  return all;
}

/**
 * In the rendered rich text: elements and attributes that could run script (any left would be a sanitiser miss even
 * if nothing fired yet). URL attributes are resolved by the browser itself.
 */
async function executableInDom(area: Locator): Promise<string[]> {
  return area.evaluateAll((roots) => {
    const bad: string[] = [];
    const forbidden = /^(script|iframe|frame|frameset|object|embed|applet|base|link|meta|style|form|portal|noscript)$/;
    const safe = new Set(['http:', 'https:', 'mailto:', 'tel:', 'blob:']);
    const urlAttrs = ['href', 'xlink:href', 'src', 'action', 'formaction', 'poster', 'cite', 'background', 'data'];
    for (const root of roots) {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        const name = el.localName;
        if (forbidden.test(name)) bad.push(`<${name}>`);
        for (const attr of Array.from(el.attributes)) {
          if (attr.name.startsWith('on') || attr.name === 'srcdoc') bad.push(`${name}[${attr.name}]`);
          if (urlAttrs.includes(attr.name)) {
            let protocol = 'invalid:';
            try {
              protocol = new URL(attr.value, document.baseURI).protocol;
            } catch {
              // an unparsable URL goes nowhere
              protocol = 'https:';
            }
            if (!safe.has(protocol)) bad.push(`${name}[${attr.name}=${attr.value.slice(0, 40)}]`);
          }
        }
      }
    }
    return bad;
  });
}

/** Lets autofocus, media errors, animations and meta refreshes happen, hovers the text, then checks everything. */
async function expectNothingRan(page: Page, events: string[], area: Locator, where: string, path: RegExp) {
  await page.waitForTimeout(1_500);
  await area
    .first()
    .hover({ timeout: 5_000 })
    .catch(() => {});
  await page.waitForTimeout(300);
  expect(await executableInDom(area), `${where}: executable markup in the page`).toEqual([]);
  expect([...(await hits(page)), ...events], `${where}: script ran`).toEqual([]);
  expect(new URL(page.url()).pathname, `${where}: the page navigated away`).toMatch(path);
}

/**
 * The payload numbers in a text, in order. A marker is the paragraph `payload N` before each payload; in text content
 * it can run into the next text ("payload 58x", "payload 1payload 2"), so a number ends where its digits do.
 */
function markers(text: string): number[] {
  return [...text.matchAll(/payload (\d+)(?!\d)/g)].map((m) => Number(m[1]));
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * The content check: what the server stored (read back through its API, after its sanitiser; a payload such as an
 * unclosed `<plaintext>` or `<noscript>` can swallow the payloads after it, so this is not always the whole corpus)
 * is what `areas` render. Waits for the last stored marker of each stored text, then requires exactly the stored
 * markers in the page's text. Answers how many payloads the screen shows.
 */
async function expectRendered(areas: Locator, stored: readonly string[], where: string): Promise<number> {
  const ids = stored.map(markers);
  for (const part of ids) {
    expect(part.length, `${where}: a stored text holds no payload`).toBeGreaterThan(0);
    const lastMarker = new RegExp(`payload ${part.at(-1)}(?!\\d)`);
    await expect(areas.filter({ hasText: lastMarker }).first(), `${where}: payload ${part.at(-1)}`).toBeAttached();
  }
  const shown = markers((await areas.allTextContents()).join('\n'));
  expect(sorted(shown), `${where}: the stored payloads rendered`).toEqual(sorted(ids.flat()));
  console.log(`${where}: ${shown.length} payloads rendered (${ids.map((p) => p.length).join(' + ')} stored)`);
  return shown.length;
}

/** The XSRF header the web's API client sends (the cookie as fixtures.ts sends it at login). */
/**
 * A call of the API as the signed-in page. The API refuses U+0000 in any field (PostgreSQL text cannot hold it), so
 * the payloads that carry one are stored with U+FFFD in its place, as an HTML parser would read them.
 */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const answer = await page.request.fetch(url, {
    method,
    ...(data === undefined ? {} : { data: JSON.stringify(data).replaceAll('\\u0000', '\\ufffd') }),
    headers: { 'X-XSRF-TOKEN': xsrf, 'content-type': 'application/json' },
  });
  expect(answer.ok(), `${method} ${url}: ${answer.status()} ${(await answer.text()).slice(0, 300)}`).toBe(true);
  return answer.status() === 204 ? null : answer.json();
}

async function signedIn(page: Page, email: string) {
  await page.addInitScript(installHook);
  await signInThroughApi(page, email, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
}

test('policy, monitoring, template and comment screens render the corpus without running any of it', async ({
  page,
}) => {
  const { XSS_CORPUS, xssBatches, xssBlock } = await loadCorpus();
  expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(500);
  const html = (payloads: readonly XssPayload[]) => payloads.map(xssBlock).join('\n');
  const events = watch(page);
  await signedIn(page, 'admin@example.com');
  const stamp = Date.now().toString(36);

  // Policy document: the whole corpus as the draft's text; its page and its print page.
  const policyApi = '/api/projects/1/policy-management';
  const doc = await api(page, 'POST', `${policyApi}/documents`, { title: `XSS ${stamp}`, content: html(XSS_CORPUS) });
  const storedDoc = await api(page, 'GET', `${policyApi}/documents/${doc.id}`);
  for (const suffix of ['', '/print']) {
    await page.goto(`/app/policy_management/1/documents/${doc.id}${suffix}`);
    // The text of the version (PolicyContent), below the header and the workflow panel; the print page's too.
    const text = page.locator('.policy-content');
    await expectRendered(text, [storedDoc.draft_version.content], `policy document${suffix}`);
    await expectNothingRan(page, events, text, `policy document${suffix}`, /\/documents\/\d+/);
  }

  // Monitoring page: the corpus in thirds over introduction, benchmarks and parameters; halves as two key insights.
  const monitoringApi = '/api/projects/1/monitoring';
  const thirds = xssBatches(Math.ceil(XSS_CORPUS.length / 3));
  const created = await api(page, 'POST', `${monitoringApi}/pages`, {
    title: `XSS ${stamp}`,
    status: 'published',
    introduction: html(thirds[0]!),
    benchmarks: html(thirds[1]!),
    parameters_and_metrics: html(thirds[2]!),
  });
  const storedMonitoring: string[] = [created.introduction, created.benchmarks, created.parameters_and_metrics];
  for (const [i, half] of xssBatches(Math.ceil(XSS_CORPUS.length / 2)).entries()) {
    const insight = await api(page, 'POST', `${monitoringApi}/pages/${created.id}/insights`, {
      title: `XSS insight ${i + 1}`,
      body: html(half),
      status: 'published',
    });
    storedMonitoring.push(insight.body);
  }
  await page.goto(`/app/monitoring/1/pages/page/${created.id}`);
  await expect(page.getByText('XSS insight 2')).toBeVisible();
  const richText = page.locator('.monitoring-rich-text');
  await expect(richText).toHaveCount(5);
  await expectRendered(richText, storedMonitoring, 'monitoring page');
  await expectNothingRan(page, events, richText, 'monitoring page', /\/pages\/page\//);

  // Policy generator template: payloads that are not placeholders spread over the seven sections, and its preview.
  const generatorApi = '/api/projects/1/policy-generator';
  const plain = XSS_CORPUS.filter((p) => !/\{\{|\{%/.test(p.html));
  const sections = ['purpose', 'scope', 'definitions', 'policy', 'procedure', 'responsibilities', 'references'];
  const template = await api(page, 'POST', `${generatorApi}/templates`, { title: `XSS ${stamp}` });
  await api(page, 'PUT', `${generatorApi}/templates/${template.id}/draft`, {
    title: `XSS ${stamp}`,
    category: '',
    description: '',
    requires_flags: [],
    sections: xssBatches(Math.ceil(plain.length / sections.length), plain).map((batch, i) => ({
      key: sections[i],
      html: html(batch),
    })),
    variables: [],
    standards: [],
  });
  const published = await api(page, 'POST', `${generatorApi}/templates/${template.id}/publish`, { note: 'XSS corpus' });
  const storedSections = (published.current.body.sections as { html: string }[]).map((section) => section.html);
  expect(storedSections).toHaveLength(sections.length);
  await page.goto(`/app/policy_generator/templates/${template.id}`);
  const preview = page.getByLabel(/^Preview of version/);
  await expectRendered(preview, storedSections, 'template preview');
  await expectNothingRan(page, events, preview, 'template preview', /\/templates\/\d+/);

  // A comment thread: the standards element panel, with the corpus as plain-text comments.
  const standardsApi = '/api/projects/1/standards';
  const { assessments } = await api(page, 'GET', `${standardsApi}/assessments`);
  const assessmentId = assessments[0].id as number;
  const tree = await api(page, 'GET', `${standardsApi}/assessments/${assessmentId}/tree`);
  const reqId = (tree.rows as { req: { id: number } | null }[]).find((r) => r.req)!.req!.id;
  // Each payload on a line of its own after its marker, in comments of at most 3,900 characters headed by this run's
  // stamp (earlier runs leave theirs on the element). Postgres text cannot hold U+0000 (40 payloads use it, and the
  // server answers 500 for a comment with one): it goes in as U+FFFD, which is what an HTML parser turns it into.
  const header = `XSS ${stamp}`;
  const comments: string[] = [];
  for (const p of XSS_CORPUS) {
    const line = `payload ${p.id} ${p.html.replaceAll('\u0000', '\uFFFD')}`;
    if (comments.length && comments.at(-1)!.length + line.length + 1 <= 3_900) {
      comments[comments.length - 1] += `\n${line}`;
    } else comments.push(`${header}\n${line}`.slice(0, 3_900));
  }
  let element: { comments: { body: string }[] } | undefined;
  for (const body of comments) {
    element = await api(page, 'POST', `${standardsApi}/req-assessments/${reqId}/comments`, { body });
  }
  const storedComments = element!.comments.map((c) => c.body).filter((body) => body.startsWith(header));
  expect(storedComments).toHaveLength(comments.length);
  await page.goto(`/app/standards/1/compilence?assessment=${assessmentId}&element=${reqId}`);
  const thread = page.getByRole('list', { name: 'Comments' }).getByRole('listitem').filter({ hasText: header });
  // Shown as text: every marker, and the last payload's markup appears literally.
  await expectRendered(thread, storedComments, 'standards comments');
  await expect(thread.last()).toContainText(XSS_CORPUS.at(-1)!.html.replaceAll('\u0000', '\uFFFD'));
  await expectNothingRan(page, events, thread, 'standards comments', /\/compilence/);
});

test('terms: the stored draft in the editor preview, the history and the public page runs none of the corpus', async ({
  page,
}) => {
  const { XSS_CORPUS, xssBlock } = await loadCorpus();
  const events = watch(page);
  await signedIn(page, 'superadmin@example.com');
  const before = (await api(page, 'GET', '/super/terms/editor')) as {
    draft: { content: string } | null;
    published: { content: string } | null;
  };
  const restore = before.draft?.content ?? before.published?.content ?? '<p>Terms.</p>';
  try {
    await api(page, 'PUT', '/super/terms/draft', { content: XSS_CORPUS.map(xssBlock).join('\n') });
    // What was stored, read back: the server's sanitiser keeps the payloads up to one whose markup swallows the rest.
    const draft = (await api(page, 'GET', '/super/terms/editor')).draft as { id: number; content: string };
    const stored = markers(draft.content);
    expect(stored.length, 'terms: payloads stored').toBeGreaterThan(0);
    const lastStored = stored.at(-1)!;

    await page.goto('/superadmin/terms_and_conditions');
    await expect(page.locator('.ProseMirror')).toContainText(new RegExp(`payload ${lastStored}(?!\\d)`));
    await page.getByText('Preview', { exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview of the terms' });
    await expectRendered(preview, [draft.content], 'terms editor preview');
    await expectNothingRan(page, events, preview, 'terms editor preview', /\/terms_and_conditions$/);

    await page.goto('/superadmin/terms_and_conditions/history');
    await page.getByRole('button', { name: `View version ${draft.id}` }).click();
    const text = page.getByLabel('Text of the version');
    await expectRendered(text, [draft.content], 'terms history');
    await expectNothingRan(page, events, text, 'terms history', /\/history$/);

    // The public page with that stored text, as it would serve it once published.
    await page.route('**/api/public/terms-and-conditions', (route) =>
      route.fulfill({ json: { content: draft.content, lastUpdated: '2026-01-01' } }),
    );
    await page.goto('/terms-and-conditions');
    const region = page.getByRole('region', { name: /terms and conditions/i });
    await expectRendered(region, [draft.content], 'public terms');
    await expectNothingRan(page, events, region, 'public terms', /\/terms-and-conditions$/);
  } finally {
    await api(page, 'PUT', '/super/terms/draft', { content: restore });
  }
});
