import type { TermsVersionDetail } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, waitFor } from '../../../test/render';
import { TermsHistoryPage } from './TermsHistoryPage';
import { choose, dialog, openPage, rows } from './test-utils';

function version(id: number, overrides: Partial<TermsVersionDetail> = {}): TermsVersionDetail {
  return {
    id,
    status: 'published',
    published_at: `2026-0${id}-04T18:00:00Z`,
    published_by: { id: 1, name: 'Ada Admin' },
    created_at: `2026-0${id}-01T10:00:00Z`,
    updated_at: `2026-0${id}-04T18:00:00Z`,
    accepted_count: id * 10,
    content: `<p>Version ${id}</p>`,
    ...overrides,
  };
}

const V1 = version(1, { content: '<h2>Use</h2><p>The portal is monitored.</p>' });
const V2 = version(2, { content: '<h2>Use</h2><p>The portal is monitored and logged.</p><p>New rules apply.</p>' });
const V3 = version(3, {
  content:
    '<p>Shown <strong>safely</strong></p><img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">bad</a>',
});
const DRAFT = version(4, { status: 'draft', published_at: null, published_by: null, accepted_count: 0 });

const listOf = (versions: TermsVersionDetail[], pending = 0) =>
  jsonResponse({ versions: versions.map(({ content: _content, ...row }) => row), pending_acceptance: pending });

const open = () => openPage('/superadmin/terms_and_conditions/history', <TermsHistoryPage />);

describe('TermsHistoryPage', () => {
  it('lists the versions newest first, with status, publisher and acceptance, and who has not accepted', async () => {
    stubApi({ 'GET /super/terms': listOf([DRAFT, V3, V2, V1], 7) });
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Terms and Conditions History');
    await waitFor(() => expect(rows()).toHaveLength(4));

    expect(text(document.querySelector('[data-testid="pending-acceptance"]')!)).toContain(
      '7 active users have not accepted version 3, the newest, yet.',
    );
    const [draft, current, older] = rows();
    expect(draft!.dataset.versionId).toBe('4');
    expect(text(draft!)).toContain('Draft');
    expect(text(draft!)).toContain('Not published');
    expect(text(current!)).toContain('Current');
    expect(text(current!)).toContain('by Ada Admin');
    expect(text(current!)).toContain('30 users');
    expect(text(current!)).toContain('Mar 4, 2026');
    expect(text(older!)).toContain('Published');
    expect(getControl('Edit the terms').getAttribute('href')).toBe('/superadmin/terms_and_conditions');
  });

  it('opens a version in a modal with its text sanitised', async () => {
    const api = stubApi({ 'GET /super/terms': listOf([V3, V2]), 'GET /super/terms/3': jsonResponse(V3) });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await click(rows()[0]!.querySelector('button')!);
    await waitFor(() => expect(text(dialog())).toContain('Shown safely'));
    expect(api.calls('GET /super/terms/3').length).toBeGreaterThan(0);
    expect(text(dialog())).toContain('Version 3 (published March 4, 2026)');
    const box = dialog().querySelector<HTMLElement>('[role="region"][aria-label="Text of the version"]')!;
    expect(box.querySelector('strong')?.textContent).toBe('safely');
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('[onerror]')).toBeNull();
    expect(box.querySelector('a')?.hasAttribute('href')).toBe(false);
    expect(box.innerHTML).not.toContain('alert(');
  });

  it('compares two versions word by word, newest against the previous one by default', async () => {
    const api = stubApi({
      'GET /super/terms': listOf([V3, V2, V1], 0),
      'GET /super/terms/1': jsonResponse(V1),
      'GET /super/terms/2': jsonResponse(V2),
      'GET /super/terms/3': jsonResponse(V3),
    });
    await open();
    await waitFor(() => expect(getField('Older version').value).toBe('Version 2 (published February 4, 2026)'));
    expect(text(document.querySelector('[data-testid="pending-acceptance"]')!)).toContain(
      'Every active user has accepted version 3',
    );
    expect(getField('Newer version').value).toBe('Version 3 (published March 4, 2026)');

    await choose(getField('Newer version'), 'Version 2 (published February 4, 2026)');
    await waitFor(() => expect(text()).toContain('Choose two different versions to compare.'));

    await choose(getField('Older version'), 'Version 1 (published January 4, 2026)');
    await waitFor(() => expect(document.querySelector('[data-testid="diff-summary"]')).not.toBeNull());
    expect(api.calls('GET /super/terms/1')).toHaveLength(1);
    const region = document.querySelector<HTMLElement>('[role="region"][aria-label="Differences"]')!;
    // "The portal is monitored[ and logged. New rules apply]." with the new paragraph marked.
    const added = [...region.querySelectorAll('ins')].map((element) => element.textContent);
    expect(added).toEqual(['and logged.¶\n\nNew rules apply']);
    expect(region.querySelectorAll('del')).toHaveLength(0);
    expect(region.textContent).toBe('Use\n\nThe portal is monitored and logged.¶\n\nNew rules apply.');
    expect(text(document.querySelector('[data-testid="diff-summary"]')!)).toBe('0 words removed, 5 words added.');

    await choose(getField('Older version'), 'Version 3 (published March 4, 2026)');
    await waitFor(() => expect(region.querySelectorAll('del').length).toBeGreaterThan(0));
    const removedText = [...region.querySelectorAll('del')].map((element) => element.textContent).join(' ');
    expect(removedText).toContain('Shown safely');
    expect(removedText).toContain('bad');
    // Compared as text: the script's code is not part of it.
    expect(region.textContent).not.toContain('alert');
    // The legend explains the marks.
    expect(document.querySelector('[aria-label="Legend"] del')?.textContent).toBe('Removed text');
    expect(document.querySelector('[aria-label="Legend"] ins')?.textContent).toBe('Added text');
  });

  it('says when two versions have the same text', async () => {
    stubApi({
      'GET /super/terms': listOf([V2, { ...V1, content: V2.content }]),
      'GET /super/terms/1': jsonResponse({ ...V1, content: V2.content }),
      'GET /super/terms/2': jsonResponse(V2),
    });
    await open();
    await waitFor(() => expect(text()).toContain('The two versions have the same text.'));
  });

  it('shows an empty state with a way to write the terms', async () => {
    stubApi({ 'GET /super/terms': listOf([]) });
    await open();
    await waitFor(() => expect(text()).toContain('No version of the terms has been written yet.'));
    expect(getControl('Write the terms').getAttribute('href')).toBe('/superadmin/terms_and_conditions');
    expect(document.querySelector('[data-testid="pending-acceptance"]')).toBeNull();
    expect(getControl('Edit the terms')).toBeTruthy();
  });

  it('shows a load error with Retry', async () => {
    const api = stubApi({
      'GET /super/terms': [jsonResponse({ message: 'Database unavailable' }, 503), listOf([V1])],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Database unavailable'));
    await click(getControl('Retry'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.calls('GET /super/terms')).toHaveLength(2);
  });
});
