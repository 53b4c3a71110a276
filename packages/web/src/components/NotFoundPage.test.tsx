import { describe, expect, it } from 'vitest';
import { getControl, renderRoute, text } from '../test/render';

describe('NotFoundPage', () => {
  it('names the missing address and links home', async () => {
    await renderRoute('/no/such/page?tab=2');

    expect(document.querySelector('h1')?.textContent).toBe('Page not found');
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(document.querySelector('main code')?.textContent).toBe('/no/such/page?tab=2');
    expect(text()).toContain('The address you asked for does not exist or has been moved.');
    expect(getControl('Go to the home page').getAttribute('href')).toBe('/');
    expect(document.title).toBe('Page not found | Healthcare Quality Portal');
  });
});
