import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { chart } from '../features/monitoring/components/charts-test-fixtures';
import { stubApi } from '../test/api-stub';
import { jsonResponse } from '../test/fetch';
import { portalRoutes } from '../test/portal-stub';
import { waitFor } from '../test/render';
import { preloadScreensFor } from './routes';

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
/** Long enough for the answers a preload chain asks for to have come. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('a signed-in page opened directly', () => {
  it("asks at once for a policy and what its app's guard reads", async () => {
    const api = stubApi(portalRoutes());
    preloadScreensFor('/app/policy_management/4/documents/17', client());
    await waitFor(() => expect(api.calls('GET /api/projects/4/policy-management/documents/17')).toHaveLength(1));
    await waitFor(() => expect(api.calls('GET /api/projects/4/policy-management/me')).toHaveLength(1));
    expect(api.calls('GET /api/projects/4/policy-management/permissions')).toHaveLength(1);
    expect(api.calls('GET /api/auth/check')).toHaveLength(1);
  });

  it("asks a page of charts for its parts, and each chart's series once the charts are known", async () => {
    const api = stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/monitoring/pages/9/charts': jsonResponse({
        charts: [
          chart({ id: 1, title: 'Falls', measure: { id: 31, name: 'Falls', type: 'rate' } }),
          chart({ id: 2, title: 'Pressure injuries', measure: { id: 32, name: 'Pressure injuries', type: 'rate' } }),
        ],
        abilities: { edit: false },
      }),
    });
    preloadScreensFor('/app/monitoring/4/pages/page/9', client());
    await waitFor(() => expect(api.calls('GET /api/projects/4/monitoring/measures/32/series')).toHaveLength(1));
    expect(api.calls('GET /api/projects/4/monitoring/measures/31/series')).toHaveLength(1);
    for (const part of ['', '/measure-summary', '/insights', '/charts']) {
      expect(api.calls(`GET /api/projects/4/monitoring/pages/9${part}`)).toHaveLength(1);
    }
    expect(api.calls('GET /api/projects/4/monitoring/me')).toHaveLength(1);
    expect(api.requests.some((request) => request.url === '/api/me/permissions?project=4&app=monitoring')).toBe(true);
  });

  it('asks nothing of the guard for a superadmin, whom it lets through, nor of a project named by its slug', async () => {
    const api = stubApi(portalRoutes({ role: 'superadmin' }));
    preloadScreensFor('/app/policy_management/4/documents/17', client());
    await waitFor(() => expect(api.calls('GET /api/projects/4/policy-management/documents/17')).toHaveLength(1));
    await settle();
    expect(api.calls('GET /api/projects/4/policy-management/me')).toHaveLength(0);

    const member = stubApi(portalRoutes());
    preloadScreensFor('/app/policy_management/lakeside-4/documents/17', client());
    await waitFor(() => expect(member.calls('GET /api/auth/check')).toHaveLength(1));
    await settle();
    expect(member.requests.map((request) => request.path)).toEqual(['/api/auth/check']);
  });

  it('asks for nothing on a public page', async () => {
    const api = stubApi(portalRoutes());
    preloadScreensFor('/member-login', client());
    await settle();
    expect(api.requests).toEqual([]);
  });
});
