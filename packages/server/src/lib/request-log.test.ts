import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { loggerOptions } from './logger.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).trimEnd().split('\n'));
    done();
  },
});

/** One log line per request, written when it is answered (issue 31: Fastify's two lines cost every request twice). */
describe('request log', () => {
  const ctx = useTestApp({ logger: pino(loggerOptions('info'), sink) });

  it('writes one line per request with the status and time, and the path without its query string', async () => {
    lines.length = 0;
    const answer = await ctx.agent().get('/api/public/terms-and-conditions?token=secret-value');
    expect(answer.statusCode).toBeLessThan(500);
    const logged = lines.map((line) => JSON.parse(line));
    const requests = logged.filter((entry) => entry.req);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      msg: 'request answered',
      status: answer.statusCode,
      req: { method: 'GET', url: '/api/public/terms-and-conditions' },
    });
    expect(typeof requests[0].ms).toBe('number');
    expect(lines.join('\n')).not.toContain('secret-value');
  });
});
