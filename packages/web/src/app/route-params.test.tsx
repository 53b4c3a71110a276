import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { render } from '../test/render';
import { RouteParamGuard, recordRoute, routeParamsValid, validProjectId, validSlug } from './route-params';

describe('validProjectId', () => {
  it.each(['1', '1234567890'])('accepts %j', (value) => {
    expect(validProjectId({ projectId: value })).toBe(value);
  });

  it.each(['', '12345678901', 'abc', '12a', ' 1', '-1'])('rejects %j', (value) => {
    expect(validProjectId({ projectId: value })).toBeNull();
  });

  it('rejects a missing parameter and reads other parameter names', () => {
    expect(validProjectId({})).toBeNull();
    expect(validProjectId({ id: '42' }, 'id')).toBe('42');
  });
});

describe('validSlug', () => {
  it.each(['demo-facility_1', 'a', 'x'.repeat(50)])('accepts %j', (value) => {
    expect(validSlug({ slug: value })).toBe(value);
  });

  it.each(['', 'x'.repeat(51), 'a b', 'a/b', 'été', '12345678901'])('rejects %j', (value) => {
    expect(validSlug({ slug: value })).toBeNull();
  });

  it('accepts a project id in its place, and digits only only as an id', () => {
    expect(validSlug({ slug: '1234567890' })).toBe('1234567890');
    expect(validSlug({ slug: '2024-north' })).toBe('2024-north');
    expect(validSlug({ slug: '0'.repeat(11) })).toBeNull();
  });

  it('reads other parameter names', () => {
    expect(validSlug({ projectSlug: 'demo' }, 'projectSlug')).toBe('demo');
  });
});

describe('routeParamsValid', () => {
  it('needs every rule to pass', () => {
    const rules = { projectId: 'projectId', slug: 'slug' } as const;
    expect(routeParamsValid({ projectId: '7', slug: 'demo' }, rules)).toBe(true);
    expect(routeParamsValid({ projectId: '7', slug: 'a b' }, rules)).toBe(false);
    expect(routeParamsValid({ slug: 'demo' }, rules)).toBe(false);
  });
});

describe('RouteParamGuard', () => {
  async function visit(path: string) {
    const router = createMemoryRouter(
      [
        {
          path: '/app/monitoring/:projectId',
          element: (
            <RouteParamGuard rules={{ projectId: 'projectId' }}>
              <h1>Monitoring screen</h1>
            </RouteParamGuard>
          ),
        },
      ],
      { initialEntries: [path] },
    );
    await render(<RouterProvider router={router} />);
  }

  it('renders the route for a valid parameter', async () => {
    await visit('/app/monitoring/12');
    expect(document.querySelector('h1')?.textContent).toBe('Monitoring screen');
  });

  it('renders the not-found page for a project slug of 11 digits (more than an id has)', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/app/policy_management/:projectOrSlug/*',
          element: (
            <RouteParamGuard rules={{ projectOrSlug: 'slug' }}>
              <h1>Policy screen</h1>
            </RouteParamGuard>
          ),
        },
      ],
      { initialEntries: ['/app/policy_management/12345678901/toc'] },
    );
    await render(<RouterProvider router={router} />);
    expect(document.querySelector('h1')?.textContent).toBe('Page not found');
  });

  it('renders the not-found page for an invalid parameter', async () => {
    await visit('/app/monitoring/abc');
    expect(document.querySelector('h1')?.textContent).toBe('Page not found');
    expect(document.querySelector('main code')?.textContent).toBe('/app/monitoring/abc');
  });
});

describe('recordRoute', () => {
  async function visit(path: string) {
    const router = createMemoryRouter(
      [
        { path: '/pages/page/:pageId', element: recordRoute(<h1>Page screen</h1>, 'pageId') },
        { path: '/reviewers/:departmentId?', element: recordRoute(<h1>Reviewers screen</h1>, 'departmentId') },
      ],
      { initialEntries: [path] },
    );
    await render(<RouterProvider router={router} />);
    return document.querySelector('h1')?.textContent;
  }

  it.each(['/pages/page/12', '/reviewers', '/reviewers/3'])('renders the screen for %j', async (path) => {
    expect(await visit(path)).toMatch(/screen$/);
  });

  it.each(['/pages/page/abc', '/pages/page/12345678901', '/pages/page/1.5', '/reviewers/x'])(
    'renders the not-found page for %j',
    async (path) => {
      expect(await visit(path)).toBe('Page not found');
    },
  );
});
