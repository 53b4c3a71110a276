import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../test/app.js';
import { AppError } from '../lib/errors.js';

describe('error envelope', () => {
  const ctx = useTestApp({
    beforeReady(app) {
      app.post(
        '/api/test/echo',
        {
          schema: {
            body: z.object({ email: z.email('Enter a valid email address.'), age: z.number().int().min(18) }),
            querystring: z.object({ mode: z.enum(['a', 'b']).optional() }),
          },
        },
        async (request) => request.body,
      );
      app.get('/api/test/boom', async () => {
        throw new Error('connection to 10.0.0.5 failed: password authentication failed for user "portal"');
      });
      app.get('/api/test/conflict', async () => {
        throw new AppError('CONFLICT', 'Someone else changed this record.', { version: ['Reload and try again.'] });
      });
    },
  });

  const post = async (url: string, payload: unknown, headers?: Record<string, string>) => {
    const agent = ctx.agent();
    await agent.csrf();
    return agent.post(url, payload, headers);
  };

  it('answers bad input with 400, a message and the messages of each field', async () => {
    const res = await post('/api/test/echo', { email: 'nope', age: 12 });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors.email).toEqual(['Enter a valid email address.']);
    expect(body.errors.age).toHaveLength(1);
    expect(body.message).toBe('Enter a valid email address.');
  });

  it('validates the query string too', async () => {
    const res = await post('/api/test/echo?mode=c', { email: 'a@b.co', age: 20 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['mode']);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await post('/api/test/echo', '{"email":', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });

  it('answers an AppError with its status, message and field errors', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/test/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Someone else changed this record.',
      code: 'CONFLICT',
      errors: { version: ['Reload and try again.'] },
    });
  });

  it('answers an unexpected failure with 500 and none of its internals', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe('INTERNAL');
    expect(res.body).not.toContain('10.0.0.5');
    expect(res.body).not.toContain('password');
    expect(res.body).not.toContain('at ');
    expect(body.message).toContain(res.headers['x-request-id']);
  });

  it('answers an unknown API path with a JSON 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await ctx.app.inject({ method, url: '/api/does-not-exist?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ message: 'Not found.', code: 'NOT_FOUND' });
    }
  });

  it('sets security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
