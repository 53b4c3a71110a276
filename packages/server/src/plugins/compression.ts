import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this an answer goes as it is: compressing it would cost about what it saves. */
export const COMPRESS_FROM_BYTES = 8 * 1024;
/** JSON (application/json, application/scim+json) and CSV: the answers that are text built on request. */
const COMPRESSIBLE = /^(?:application\/(?:[\w.-]+\+)?json|text\/csv)\b/i;

/**
 * Large text answers are compressed for clients that accept it (decision record 031): the policy table of contents
 * of 5,000 policies is about 1 MB of JSON and a framework's compliance tree 160 KB, which a phone on a ward's Wi-Fi
 * waits for. Brotli or gzip at their fastest levels, off the event loop (zlib's threads): measured with bench:floor,
 * brotli at quality 4 halved the tree's requests per second; at quality 1 it costs about what the smaller write
 * saves. Streams (files, PDFs, exports written as they are read) and pre-compressed static files go as they are.
 */
export function registerAnswerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const encoding = answerCoding(request, reply, Buffer.byteLength(payload));
    if (!encoding) return payload;
    const body = await compressAnswer(payload, encoding);
    markCoded(reply, encoding);
    return body;
  });
}

/**
 * The coding a text answer of `bytes` goes in to this client, or null for none (too small, or none accepted). A large
 * one says it varies with Accept-Encoding: whatever this client gets, another may get the other form, and a cache
 * must tell them apart.
 */
export function answerCoding(request: FastifyRequest, reply: FastifyReply, bytes: number): 'br' | 'gzip' | null {
  if (bytes < COMPRESS_FROM_BYTES) return null;
  reply.header('vary', withVary(reply.getHeader('vary'), 'Accept-Encoding'));
  return preferredEncoding(request.headers['accept-encoding']);
}

/** Headers of an answer sent compressed in `encoding`. */
export function markCoded(reply: FastifyReply, encoding: 'br' | 'gzip'): void {
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
}

/** How hard to compress: the fastest levels for an answer made for one request, better ones for an answer kept. */
export interface CompressionEffort {
  brotliQuality: number;
  gzipLevel: number;
}
const FASTEST: CompressionEffort = { brotliQuality: 1, gzipLevel: 1 };

/** `payload` in `encoding`, off the event loop (zlib's threads). */
export function compressAnswer(
  payload: string | Buffer,
  encoding: 'br' | 'gzip',
  effort: CompressionEffort = FASTEST,
): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(payload, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: effort.brotliQuality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload),
        },
      })
    : gzip(payload, { level: effort.gzipLevel });
}

/**
 * The coding the client weighs most of br and gzip (br on a tie), or none; `;q=0` refuses a coding, `*` stands for
 * any coding not named.
 */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => accepted.get(coding) ?? accepted.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

function withVary(current: unknown, field: string): string {
  const fields = String(current ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.some((f) => f === '*' || f.toLowerCase() === field.toLowerCase())) return fields.join(', ');
  return [...fields, field].join(', ');
}
