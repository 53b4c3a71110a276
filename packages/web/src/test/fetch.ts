import { vi } from 'vitest';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces fetch for one test (vitest's unstubGlobals restores it) and returns the mock. */
export function stubFetch(...responses: Array<Response | Promise<Response>>) {
  const mock = vi.fn<typeof fetch>();
  for (const response of responses) mock.mockImplementationOnce(() => Promise.resolve(response));
  vi.stubGlobal('fetch', mock);
  return mock;
}
