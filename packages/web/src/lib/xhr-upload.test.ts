import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FakeXhr } from '../test/fake-xhr';
import { stubFetch } from '../test/fetch';
import { ApiError } from './api';
import { xhrUpload } from './xhr-upload';

/** FakeXhr answering each request by itself with the next queued answer (none left: the request stays pending). */
class QueuedXhr extends FakeXhr {
  static answers: Array<{ status: number; body?: unknown } | 'network-error'> = [];
  override send(body: FormData) {
    super.send(body);
    const answer = QueuedXhr.answers.shift();
    if (!answer) return;
    setTimeout(() => {
      if (answer === 'network-error') {
        this.onerror?.();
        return;
      }
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
      this.upload.onload?.();
      this.status = answer.status;
      this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
      this.onload?.();
    }, 0);
  }
}

const schema = z.object({ id: z.number() });

function cookies(value: string) {
  vi.spyOn(document, 'cookie', 'get').mockReturnValue(value);
}

beforeEach(() => {
  FakeXhr.sent = [];
  QueuedXhr.answers = [];
  vi.stubGlobal('XMLHttpRequest', QueuedXhr);
});

describe('xhrUpload', () => {
  it('sends cookies, the anti-forgery token and extra headers, reports progress and parses the answer', async () => {
    cookies(`XSRF-TOKEN=${encodeURIComponent('tok/1=')}`);
    QueuedXhr.answers.push({ status: 201, body: { id: 4, extra: true } });
    const progress: number[] = [];
    const result = await xhrUpload('/api/up', {
      body: new FormData(),
      schema,
      headers: { 'Idempotency-Key': 'k-1' },
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(result).toEqual({ id: 4 });
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.headers).toEqual({ Accept: 'application/json', 'X-XSRF-TOKEN': 'tok/1=', 'Idempotency-Key': 'k-1' });
    expect(progress).toEqual([0.5, 1]);
  });

  it('asks for the anti-forgery cookie first when it is missing, and once more after a 419', async () => {
    cookies('');
    const fetchMock = stubFetch(new Response(null, { status: 204 }), new Response(null, { status: 204 }));
    QueuedXhr.answers.push(
      { status: 419, body: { message: 'CSRF token mismatch.' } },
      { status: 200, body: { id: 1 } },
    );
    await expect(xhrUpload('/api/up', { body: new FormData(), schema })).resolves.toEqual({ id: 1 });
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual(['/sanctum/csrf-cookie', '/sanctum/csrf-cookie']);
    expect(FakeXhr.sent).toHaveLength(2);
  });

  it('turns error answers into ApiError with the server message', async () => {
    cookies('XSRF-TOKEN=t');
    QueuedXhr.answers.push(
      { status: 413, body: { message: 'The file is larger than 10 MB.' } },
      { status: 400, body: { message: '', errors: { title: ['Enter the title.'] } } },
      { status: 200, body: { id: 'not a number' } },
      'network-error',
    );
    const send = () => xhrUpload('/api/up', { body: new FormData(), schema });
    await expect(send()).rejects.toMatchObject({ status: 413, message: 'The file is larger than 10 MB.' });
    const invalid = await send().catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ status: 400, message: 'Enter the title.' });
    await expect(send()).rejects.toMatchObject({
      status: 0,
      message: 'The server sent an unexpected response. Please try again later.',
    });
    await expect(send()).rejects.toMatchObject({ status: 0, message: expect.stringContaining('could not be reached') });
  });

  it('stops when its signal is aborted', async () => {
    cookies('XSRF-TOKEN=t');
    const controller = new AbortController();
    const pending = xhrUpload('/api/up', { body: new FormData(), schema, signal: controller.signal });
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
