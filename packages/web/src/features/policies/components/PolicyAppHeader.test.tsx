import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { text, waitFor } from '../../../test/render';
import { API, BASE, input, openPolicy, pending, sessionRoutes } from './browse-test-helpers';
import { activePolicySection } from './PolicyAppHeader';

function navLinks(): HTMLAnchorElement[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Policy management"] a')];
}

describe('activePolicySection', () => {
  it('reads the section from a policy path, by id or slug', () => {
    expect(activePolicySection('/app/policy_management/12/toc')).toBe('toc');
    expect(activePolicySection('/app/policy_management/north/documents/status/draft')).toBe('documents');
    expect(activePolicySection('/app/policy_management/12/documents/5')).toBe('documents');
    expect(activePolicySection('/app/policy_management/12/edit-department/3')).toBe('insert-department');
    // The app's home is the "My tasks" page.
    expect(activePolicySection('/app/policy_management/12')).toBe('');
    expect(activePolicySection('/app/policy_management/12/department-readers/4')).toBe('healthy-departments');
    expect(activePolicySection('/app/monitoring/12/toc')).toBeNull();
  });
});

describe('PolicyAppHeader', () => {
  it('links only the allowed sections, in order, and marks the current one', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: () => pending(),
      [`GET ${API}/departments`]: () => pending(),
    });
    const router = await openPolicy(`${BASE}/documents/status/draft`, ['numbering', 'toc', 'documents', 'unknown']);
    expect(navLinks().map((link) => text(link).trim())).toEqual(['Table of contents', 'Documents', 'Numbering']);
    expect(navLinks().map((link) => link.getAttribute('href'))).toEqual([
      `${BASE}/toc`,
      `${BASE}/documents`,
      `${BASE}/numbering`,
    ]);
    expect(navLinks().map((link) => link.getAttribute('aria-current'))).toEqual([null, 'page', null]);
    expect(input('Search policies')).toBeTruthy();
    expect(document.querySelector('form[role="search"]')).not.toBeNull();

    await act(() => router.navigate(`${BASE}/numbering`));
    await waitFor(() => expect(navLinks()[2]!.getAttribute('aria-current')).toBe('page'));
    expect(navLinks()[1]!.getAttribute('aria-current')).toBeNull();
  });

  it('shows every section when all are allowed', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/archive`]: jsonResponse({ documents: [], versions: [] }) });
    await openPolicy(`${BASE}/archive-navigator`, [
      'toc',
      'documents',
      'navigator',
      'archive-navigator',
      'convert',
      'numbering',
      'insert-department',
      'dnd',
      'quick-reference-guide',
    ]);
    expect(navLinks().map((link) => text(link).trim())).toEqual([
      'Table of contents',
      'Documents',
      'Navigator',
      'Archive',
      'Convert Word',
      'Numbering',
      'Departments',
      'Reorder',
      'Quick reference',
    ]);
    expect(document.querySelector('nav[aria-label="Policy management"] [aria-current="page"]')!.textContent).toBe(
      'Archive',
    );
  });
});
