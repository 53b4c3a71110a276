import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A browser-like client for fastify.inject: keeps cookies, sends X-XSRF-TOKEN from the XSRF-TOKEN cookie on
 * state-changing requests, as the web's API client does.
 */
export function createAgent(app: FastifyInstance, options: { ip?: string } = {}) {
  const jar = new Map<string, string>();

  async function request(opts: InjectOptions & { method: string; url: string }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = jar.get('XSRF-TOKEN');
    if (STATE_CHANGING.has(opts.method.toUpperCase()) && xsrf && !('x-xsrf-token' in headers)) {
      headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    }
    const res = await app.inject({ ...opts, headers, remoteAddress: options.ip ?? '127.0.0.1' } as InjectOptions);
    // Expiry is judged by the app's clock, as a browser on the server's time would: tests that set the clock to a
    // fixed day must not lose their cookies once the real time has passed their expiry.
    const now = app.clock.now().getTime();
    for (const cookie of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const cleared = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= now);
      if (cleared) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return res;
  }

  const agent = {
    jar,
    request,
    get: (url: string, headers?: Record<string, string>) =>
      request({ method: 'GET', url, ...(headers ? { headers } : {}) }),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      request({
        method: 'POST',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        ...(headers ? { headers } : {}),
      }),
    put: (url: string, payload?: unknown) => request({ method: 'PUT', url, payload: payload as object }),
    patch: (url: string, payload?: unknown) => request({ method: 'PATCH', url, payload: payload as object }),
    delete: (url: string, payload?: unknown) =>
      request({ method: 'DELETE', url, ...(payload === undefined ? {} : { payload: payload as object }) }),
    /** GET /sanctum/csrf-cookie, as the web does before its first state-changing call. */
    csrf: () => request({ method: 'GET', url: '/sanctum/csrf-cookie' }),
    /** Signs in through the real POST /login (captcha off in tests unless a test turns it on). */
    async login(login: string, password: string, extra: Record<string, unknown> = {}) {
      if (!jar.has('XSRF-TOKEN')) await agent.csrf();
      return agent.post('/login', { email: login, password, ...extra });
    },
  };
  return agent;
}

export type Agent = ReturnType<typeof createAgent>;

/** Sends `body` with any method but GET (whose second argument is headers): what the guard tests' call tables need. */
export function send(agent: Agent, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown) {
  return method === 'get' ? agent.get(url) : agent[method](url, body);
}
