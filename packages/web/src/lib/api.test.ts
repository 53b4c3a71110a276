import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse, stubFetch } from '../test/fetch';
import { ApiError, apiFetch, messageFor } from './api';

function sentHeaders(mock: ReturnType<typeof stubFetch>): Headers {
  return new Headers(mock.mock.calls[0]![1]?.headers);
}

/** What document.cookie reads back (restored after each test by restoreMocks). */
function setCookies(value: string) {
  vi.spyOn(document, 'cookie', 'get').mockReturnValue(value);
}

describe('apiFetch', () => {
  it('sends cookies and the decoded XSRF-TOKEN cookie on a state-changing request, as JSON', async () => {
    setCookies(`theme=dark; XSRF-TOKEN=${encodeURIComponent('abc/123+==')}; XSRF-TOKEN-OLD=nope`);
    const mock = stubFetch(jsonResponse({ ok: true }));

    await expect(apiFetch('/api/things', { method: 'post', body: { name: 'x' } })).resolves.toEqual({ ok: true });

    const init = mock.mock.calls[0]![1]!;
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"x"}');
    expect(sentHeaders(mock).get('X-XSRF-TOKEN')).toBe('abc/123+==');
    expect(sentHeaders(mock).get('Content-Type')).toBe('application/json');
  });

  it('leaves the anti-forgery header off GET requests', async () => {
    setCookies('XSRF-TOKEN=abc');
    const mock = stubFetch(jsonResponse([]));
    await apiFetch('/api/things');
    expect(sentHeaders(mock).has('X-XSRF-TOKEN')).toBe(false);
    expect(mock.mock.calls[0]![1]?.credentials).toBe('include');
  });

  it('passes FormData through without a JSON content type', async () => {
    setCookies('XSRF-TOKEN=abc');
    const mock = stubFetch(new Response(null, { status: 204 }));
    const form = new FormData();
    form.append('file', 'x');
    await expect(apiFetch('/api/upload', { method: 'POST', body: form })).resolves.toBeUndefined();
    expect(mock.mock.calls[0]![1]?.body).toBe(form);
    expect(sentHeaders(mock).has('Content-Type')).toBe(false);
  });

  it.each([
    [{ message: 'Invalid credentials' }, 'Invalid credentials'],
    [{ message: '', errors: { email: ['The email is invalid.'] } }, 'The email is invalid.'],
    [{}, 'Login failed'],
  ])('raises an ApiError whose message follows SPEC section 8 (%j)', async (body, message) => {
    setCookies('XSRF-TOKEN=abc');
    stubFetch(jsonResponse(body, 422));
    const error = await apiFetch('/login', { method: 'POST', errorFallback: 'Login failed' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, body, message });
  });

  it('parses the response with the given schema and rejects a mismatch', async () => {
    const schema = z.object({ id: z.number() });
    stubFetch(jsonResponse({ id: 1, extra: true }), jsonResponse({ id: 'one' }));
    await expect(apiFetch('/api/x', { schema })).resolves.toEqual({ id: 1 });
    await expect(apiFetch('/api/x', { schema })).rejects.toMatchObject({ name: 'ApiError', status: 0 });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    const mock = stubFetch();
    mock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 0, message: expect.stringContaining('reached') });
  });
});

/** A browser-like cookie jar: GET /sanctum/csrf-cookie sets XSRF-TOKEN to the next token of `tokens`. */
function serverWithCsrf(tokens: string[], answers: Response[]) {
  let cookie = '';
  vi.spyOn(document, 'cookie', 'get').mockImplementation(() => cookie);
  const mock = vi.fn<typeof fetch>(async (input) => {
    if (input === '/sanctum/csrf-cookie') {
      cookie = `XSRF-TOKEN=${encodeURIComponent(tokens.shift() ?? 'none')}`;
      return new Response(null, { status: 204 });
    }
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${String(input)}`);
    return answer;
  });
  vi.stubGlobal('fetch', mock);
  const calls = () => mock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
  const tokenOf = (index: number) => new Headers(mock.mock.calls[index]![1]?.headers).get('X-XSRF-TOKEN');
  return { mock, calls, tokenOf };
}

describe('apiFetch anti-forgery token', () => {
  it('fetches the XSRF-TOKEN cookie once before the first state-changing request, then sends it', async () => {
    const server = serverWithCsrf(['first'], [jsonResponse({ a: 1 }), jsonResponse({ b: 2 })]);

    await Promise.all([
      apiFetch('/login', { method: 'POST', body: {} }),
      apiFetch('/logout', { method: 'POST', body: {} }),
    ]);

    const [first, ...others] = server.calls();
    expect(first).toBe('GET /sanctum/csrf-cookie');
    expect(others.sort()).toEqual(['POST /login', 'POST /logout']);
    expect(server.mock.mock.calls[0]![1]?.credentials).toBe('include');
    expect(server.tokenOf(1)).toBe('first');
    expect(server.tokenOf(2)).toBe('first');
  });

  it('does not ask for a token on GET requests or when the cookie is there', async () => {
    const server = serverWithCsrf([], [jsonResponse({}), jsonResponse({})]);
    await apiFetch('/api/user');
    expect(server.calls()).toEqual(['GET /api/user']);

    vi.spyOn(document, 'cookie', 'get').mockReturnValue('XSRF-TOKEN=present');
    await apiFetch('/logout', { method: 'POST' });
    expect(server.calls()).toEqual(['GET /api/user', 'POST /logout']);
  });

  it('on 419 fetches a fresh token and retries the request once with it', async () => {
    const server = serverWithCsrf(
      ['stale', 'fresh'],
      [jsonResponse({ message: 'CSRF token mismatch.' }, 419), jsonResponse({ user: 1 })],
    );

    await expect(apiFetch('/login', { method: 'POST', body: { email: 'a' } })).resolves.toEqual({ user: 1 });

    expect(server.calls()).toEqual([
      'GET /sanctum/csrf-cookie',
      'POST /login',
      'GET /sanctum/csrf-cookie',
      'POST /login',
    ]);
    expect(server.tokenOf(1)).toBe('stale');
    expect(server.tokenOf(3)).toBe('fresh');
    expect(server.mock.mock.calls[3]![1]?.body).toBe('{"email":"a"}');
  });

  it('retries only once: a second 419 is the error', async () => {
    const server = serverWithCsrf(
      ['one', 'two'],
      [jsonResponse({ message: 'CSRF token mismatch.' }, 419), jsonResponse({ message: 'CSRF token mismatch.' }, 419)],
    );
    await expect(apiFetch('/logout', { method: 'POST' })).rejects.toMatchObject({
      status: 419,
      message: 'CSRF token mismatch.',
    });
    expect(server.calls().filter((call) => call === 'POST /logout')).toHaveLength(2);
  });
});

describe('apiFetch two-factor events', () => {
  function listen(type: string) {
    const events: unknown[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent).detail);
    window.addEventListener(type, listener);
    onTestFinished(() => window.removeEventListener(type, listener));
    return events;
  }

  it('raises mfa-warning with the days remaining from the grace header', async () => {
    const warnings = listen('mfa-warning');
    stubFetch(
      new Response('{"ok":true}', {
        headers: { 'Content-Type': 'application/json', 'x-mfa-grace-days-remaining': '5' },
      }),
      jsonResponse({ ok: true }),
    );

    await apiFetch('/api/member/projects');
    await apiFetch('/api/member/projects');

    expect(warnings).toEqual([
      {
        days_remaining: 5,
        message: 'Two-factor authentication will be required for your account in 5 days. Set it up now to keep access.',
      },
    ]);
  });

  it('raises mfa-required with the body of a 403 that says so, and still fails the call', async () => {
    const required = listen('mfa-required');
    const body = {
      message: 'Two-factor authentication is required for your account. Set it up to continue.',
      mfa_required: true,
    };
    stubFetch(jsonResponse(body, 403), jsonResponse({ message: 'Forbidden' }, 403));

    await expect(apiFetch('/api/member/projects')).rejects.toMatchObject({ status: 403, message: body.message });
    await expect(apiFetch('/api/member/projects')).rejects.toMatchObject({ status: 403 });

    expect(required).toEqual([body]);
  });
});

describe('messageFor', () => {
  it("uses the server's message, or the fallback when the server was not reached", () => {
    expect(messageFor(new ApiError(422, {}, 'Bad code'), 'Login failed')).toBe('Bad code');
    expect(messageFor(new ApiError(0, null, 'The server could not be reached.'), 'Login failed')).toBe('Login failed');
    expect(messageFor(new Error('boom'), 'Login failed')).toBe('Login failed');
  });
});
