import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { answerCoding, type CompressionEffort, compressAnswer, markCoded } from './compression.js';
import { ACCESS_CHANNEL, DATA_CHANNEL, KeptUntilChanged } from './kept-until-changed.js';
import { STATE_CHANGING } from './session.js';

/** An answer as it left: its type, its JSON and its size, and that JSON compressed in each coding asked for so far. */
export interface KeptAnswer {
  type: string;
  plain: string;
  bytes: number;
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whole answers of the hottest reads, kept between requests (decision record 032). */
    keptAnswers: KeptUntilChanged<KeptAnswer>;
  }
  interface FastifyRequest {
    /** Set on a GET of a route with `keptAnswer`: where its answer is kept, and whether it came from there. */
    keptAnswer?: { key: string; generation: number; hit: boolean; done?: () => void };
  }
  interface FastifyContextConfig {
    /**
     * The answer may be kept between reads (decision record 032). Only for a GET whose answer is JSON, depends on
     * nothing but the session, its address, the clock's quarter hour and the data in PostgreSQL, and whose handler
     * writes nothing that must be written at every read (an access log, a read receipt).
     */
    keptAnswer?: boolean;
  }
}

/** A clock's quarter hour: every time zone's day starts at one, so an answer that shows "today" is read again. */
const QUARTER_HOUR_MS = 15 * 60_000;
/**
 * A kept answer is compressed once and sent many times: harder than one made for a single request. Brotli's quality 5
 * sends the 5,000-policy table of contents in 21 KB instead of quality 1's 30 KB (bench:floor), for a few
 * milliseconds more, once.
 */
const KEPT_EFFORT: CompressionEffort = { brotliQuality: 5, gzipLevel: 6 };
/** How long a read waits for the same read in flight before it reads for itself. */
const WAIT_FOR_READ_MS = 5_000;

/**
 * Whole answers of the hottest reads (the policy table of contents and a policy document, the compliance tree, a
 * monitoring page's calls, My reviews, the notifications list) kept by this instance for the session that read them,
 * with their compressed forms: the next read of the same address answers without a statement, a serializer or a
 * compressor. The route's own guards still run before (its preHandlers), and the handler's check of the actor is
 * answered by the session that got the answer: what the session may see changes only with access, whose every change
 * forgets everything kept. Any change of data
 * anywhere forgets too (migration 0031's triggers, `DATA_CHANNEL`), as does every write through this instance before
 * it answers. Call before `registerAnswerCompression`: it compresses what it keeps itself.
 */
export function registerKeptAnswers(app: FastifyInstance): void {
  const kept = new KeptUntilChanged<KeptAnswer>({
    pool: app.database.pool,
    log: app.log,
    ttlMs: app.config.ANSWER_CACHE_SECONDS * 1000,
    max: 5_000,
    maxWeight: app.config.ANSWER_CACHE_MB * 1024 * 1024,
    // Its compressed forms are a small part of it.
    weigh: (answer) => Math.ceil(answer.bytes * 1.25),
    channels: [ACCESS_CHANNEL, DATA_CHANNEL],
  });
  app.decorate('keptAnswers', kept);
  app.addHook('onReady', () => kept.start());
  app.addHook('onClose', () => kept.stop());

  // The reads of an address under way: after a change, the 50 readers of a table of contents wait for one of them
  // to read it rather than all read it at once.
  const inFlight = new Map<string, Promise<void>>();
  const serveKept: preHandlerHookHandler = async (request, reply) => {
    if (request.method !== 'GET' || !request.session || !kept.enabled) return;
    const quarter = Math.floor(app.clock.now().getTime() / QUARTER_HOUR_MS);
    const key = `${request.session.idHash}\n${quarter}\n${request.url}`;
    let answer = kept.get(key);
    const under = answer ? undefined : inFlight.get(key);
    if (under) {
      await Promise.race([under, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_READ_MS).unref())]);
      answer = kept.get(key);
    }
    const state: NonNullable<FastifyRequest['keptAnswer']> = { key, generation: kept.generation, hit: !!answer };
    request.keptAnswer = state;
    if (answer) {
      reply.header('content-type', answer.type);
      return reply.send(await encoded(request, reply, answer));
    }
    if (inFlight.has(key)) return;
    let finished = () => {};
    const reading = new Promise<void>((resolve) => {
      finished = resolve;
    });
    inFlight.set(key, reading);
    state.done = () => {
      if (inFlight.get(key) === reading) inFlight.delete(key);
      finished();
    };
  };
  // A route-level preHandler runs after every hook of the app (the session, the two-factor policy) and the route's own.
  app.addHook('onRoute', (route) => {
    if (!route.config?.keptAnswer) return;
    const own = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [...own, serveKept];
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A change made here holds for this instance's next read, before its answer leaves.
    if (STATE_CHANGING.has(request.method)) kept.clear();
    const state = request.keptAnswer;
    if (!state || state.hit || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const answer: KeptAnswer = { type, plain: payload, bytes: Buffer.byteLength(payload), encoded: {} };
    const sent = await encoded(request, reply, answer);
    kept.set(state.key, answer, state.generation);
    state.done?.();
    return sent;
  });
  // Whatever became of the read (refused, failed, the client gone), those waiting for it go on.
  app.addHook('onResponse', async (request) => request.keptAnswer?.done?.());
  app.addHook('onRequestAbort', async (request) => request.keptAnswer?.done?.());
}

/** The answer as this client takes it: compressed where `registerAnswerCompression` would, each form made once. */
async function encoded(request: FastifyRequest, reply: FastifyReply, answer: KeptAnswer): Promise<string | Buffer> {
  const encoding = answerCoding(request, reply, answer.bytes);
  if (!encoding) return answer.plain;
  answer.encoded[encoding] ??= await compressAnswer(answer.plain, encoding, KEPT_EFFORT);
  markCoded(reply, encoding);
  return answer.encoded[encoding];
}
