import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse, stubFetch } from '../test/fetch';
import { ApiError, apiFetch } from './api';

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
