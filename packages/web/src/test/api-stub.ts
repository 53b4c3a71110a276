import { vi } from 'vitest';
import { jsonResponse } from './fetch';

export interface StubRequest {
  method: string;
  /** Path with its query string. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body, parsed. */
  body: unknown;
}

export type StubHandler = Response | ((request: StubRequest) => Response | Promise<Response>);

/**
 * A fake server for screen tests: `routes` maps 'METHOD /path' (query string ignored) to a response, a function
 * of the request, or a list answered in turn (the last one repeats). An unknown route fails the request with 404
 * and is recorded, so a test sees it. The XSRF-TOKEN cookie is present, so no /sanctum/csrf-cookie round trip.
 */
export function stubApi(routes: Record<string, StubHandler | StubHandler[]>) {
  vi.spyOn(document, 'cookie', 'get').mockReturnValue('XSRF-TOKEN=test-token');
  const requests: StubRequest[] = [];
  const counters = new Map<string, number>();

  const mock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const [path = '', search = ''] = url.split('?');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    const request: StubRequest = {
      method,
      url,
      path,
      query: new URLSearchParams(search),
      headers: new Headers(init?.headers),
      body: raw ? JSON.parse(raw) : undefined,
    };
    requests.push(request);
    const key = `${method} ${path}`;
    const route = routes[key];
    if (!route) return jsonResponse({ message: `No stub for ${key}` }, 404);
    let handler: StubHandler;
    if (Array.isArray(route)) {
      const index = counters.get(key) ?? 0;
      counters.set(key, index + 1);
      handler = route[Math.min(index, route.length - 1)]!;
    } else {
      handler = route;
    }
    return typeof handler === 'function' ? handler(request) : handler.clone();
  });
  vi.stubGlobal('fetch', mock);

  return {
    mock,
    requests,
    /** Requests to `METHOD /path`. */
    calls: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
  };
}

export const SIGNED_OUT_CHECK = { authenticated: false, user: null };

export function signedInCheck(role: 'user' | 'superadmin' = 'user', username = 'member') {
  return {
    authenticated: true,
    user: { id: 7, username, role, two_factor_secret: false, two_factor_confirmed_at: null },
  };
}

export const CONFIG_ALTCHA = {
  inactivityTimeoutMinutes: 15,
  captcha: { provider: 'altcha', challengeUrl: '/api/public/captcha/challenge' },
};

export const CONFIG_NO_CAPTCHA = { ...CONFIG_ALTCHA, captcha: { provider: 'off', challengeUrl: '' } };

/** GET /api/two-factor for someone who has not turned it on and is not required to. */
export const TWO_FACTOR_OFF = {
  enabled: false,
  pending: false,
  confirmed_at: null,
  recovery_codes_remaining: 0,
  required: false,
  grace_days_remaining: null,
};

/**
 * What a sign-in screen asks the server for on the way in: signed out at first, then signed in as dana, with the
 * terms accepted, no projects and two-factor off.
 */
export function signInRoutes(config: typeof CONFIG_ALTCHA): Record<string, StubHandler | StubHandler[]> {
  return {
    'GET /api/auth/check': [jsonResponse(SIGNED_OUT_CHECK), jsonResponse(signedInCheck('user', 'dana'))],
    'GET /api/public/config': jsonResponse(config),
    'GET /check-terms': jsonResponse({ status: 'accepted' }),
    'GET /api/member/projects': jsonResponse({ projects: [] }),
    'GET /api/two-factor': jsonResponse(TWO_FACTOR_OFF),
  };
}
