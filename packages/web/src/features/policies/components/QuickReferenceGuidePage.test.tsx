import { DOCUMENT_STATUS_DESCRIPTIONS, DOCUMENT_STATUS_LABELS, DOCUMENT_STATUSES } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { text } from '../../../test/render';
import { BASE, openPolicyAdmin, sessionRoutes } from './admin-test-helpers';

describe('QuickReferenceGuidePage', () => {
  it('explains every status, how to search and where the screens are', async () => {
    stubApi(sessionRoutes());
    await openPolicyAdmin(`${BASE}/quick-reference-guide`);
    expect(document.querySelector('h1')!.textContent).toBe('Quick reference guide');
    expect(document.title).toContain('Quick reference guide');

    const statuses = [...document.querySelectorAll('tr[data-status]')].map((tr) => [
      tr.querySelector('td')!.textContent,
      tr.querySelectorAll('td')[1]!.textContent,
    ]);
    expect(statuses).toEqual(
      DOCUMENT_STATUSES.map((status) => [DOCUMENT_STATUS_LABELS[status], DOCUMENT_STATUS_DESCRIPTIONS[status]]),
    );

    const examples = [...document.querySelectorAll('[data-testid="search-examples"] code')].map(
      (code) => code.textContent,
    );
    expect(examples).toEqual(['hand hygiene', '"hand hygiene"', 'hygiene -surgical', 'gloves or gowns', '1.2']);
    expect(text()).toContain('1.2 comes before 1.10');
    expect(text()).toContain('NUR-1.2');
    expect(text()).toContain('NOT CURRENT – version N');
    expect(text()).toContain('Signers see the policies waiting for their signature');

    const links = new Map(
      [...document.querySelectorAll<HTMLAnchorElement>('a')].map((a) => [a.textContent, a.getAttribute('href')]),
    );
    expect(links.get('Numbering')).toBe(`${BASE}/numbering`);
    expect(links.get('Reorder and renumber')).toBe(`${BASE}/dnd`);
    const hrefs = [...document.querySelectorAll<HTMLAnchorElement>('a')].map((a) => a.getAttribute('href'));
    for (const path of ['toc', 'navigator', 'documents', 'archive-navigator'])
      expect(hrefs).toContain(`${BASE}/${path}`);
    // The page's own table of contents points at its sections.
    for (const href of hrefs.filter((value) => value?.startsWith('#'))) {
      expect(document.getElementById(href!.slice(1))).not.toBeNull();
    }
    expect(hrefs.filter((value) => value?.startsWith('#'))).toHaveLength(5);
  });
});
