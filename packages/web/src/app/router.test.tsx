import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../test/fetch';
import { getControl, renderRoute } from '../test/render';

describe('app routes', () => {
  it('shows the welcome page at / with real links only', async () => {
    await renderRoute('/');

    expect(document.querySelector('main h1')?.textContent).toBe('Healthcare Quality Portal');
    expect(document.title).toBe('Healthcare Quality Portal');
    expect(getControl('Member Login').getAttribute('href')).toBe('/member-login');
    expect(getControl('Terms and Conditions').getAttribute('href')).toBe('/terms-and-conditions');
    expect(getControl('API documentation').getAttribute('href')).toBe('/api/docs');
  });

  it('scrolls smoothly to the top when the path changes, not on the first render', async () => {
    stubFetch(jsonResponse({ content: null, lastUpdated: null }));
    const { router } = await renderRoute('/');
    expect(window.scrollTo).not.toHaveBeenCalled();

    await act(() => router.navigate('/terms-and-conditions'));
    expect(document.querySelector('h1')?.textContent).toBe('Terms and Conditions (System Use Notification)');
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('scrolls without animation when the user prefers reduced motion', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query.includes('reduce'), media: query }) as MediaQueryList,
    );
    const { router } = await renderRoute('/');
    await act(() => router.navigate('/somewhere-else'));
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'auto' });
  });
});
