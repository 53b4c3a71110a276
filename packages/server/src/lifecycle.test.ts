import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { createShutdown } from './lifecycle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What happened on the server side, in order. */
const events: string[] = [];

/** Each test gets a listening app with a slow route, so a request can be in flight when shutdown starts. */
function useSlowApp() {
  return useTestApp({
    beforeReady(app) {
      app.get('/api/test/slow', async (request) => {
        const ms = Number((request.query as { ms?: string }).ms ?? 500);
        await sleep(ms);
        events.push('request handled');
        return { done: true };
      });
    },
  });
}

describe('createShutdown', () => {
  describe('with a request in flight', () => {
    const ctx = useSlowApp();

    it('lets it finish, refuses new work meanwhile, then releases resources', async () => {
      events.length = 0;
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const inFlight = fetch(`${address}/api/test/slow?ms=600`).then((res) => res.json());
      await sleep(100);
      const shutdown = createShutdown({ app: ctx.app, release: async () => void events.push('released') });
      const started = Date.now();
      const stopping = shutdown('SIGTERM');
      expect(ctx.app.shuttingDown).toBe(true);
      // A second signal joins the same shutdown.
      expect(shutdown('SIGINT')).toBe(stopping);
      await stopping;
      // Done when the last request is, not when the 10 s grace period runs out.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await inFlight).toEqual({ done: true });
      expect(events).toEqual(['request handled', 'released']);
      await expect(fetch(`${address}/healthz`)).rejects.toThrow();
    });
  });

  describe('with a request longer than the grace period', () => {
    const ctx = useSlowApp();

    it('cuts it after the grace period and still releases resources', async () => {
      let released = false;
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const inFlight = fetch(`${address}/api/test/slow?ms=20000`).then(
        () => 'answered',
        () => 'cut',
      );
      await sleep(100);
      const started = Date.now();
      const release = async () => {
        released = true;
      };
      await createShutdown({ app: ctx.app, release, graceMs: 300 })('SIGTERM');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await inFlight).toBe('cut');
      expect(released).toBe(true);
    });
  });
});
