import {
  type AssistAction,
  type RefineInput,
  redlineHtml,
  type StandardRef,
  TEMPLATE_SECTION_TITLES,
  type TemplateSectionKey,
} from '@portal/shared';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { pgLlmCalls, stdFrameworks, stdNodes } from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { type GeneratorActor, generatorAudit } from './kit.js';
import { loadTemplateVersion } from './templates.service.js';

/**
 * The optional writing assistant (issue 12; DOMAIN.md 4.2): a language model the operator runs behind an
 * OpenAI-compatible /chat/completions (a local llama-server, Ollama), off unless ASSIST_URL is set. It only
 * suggests a rewrite of one section of a template being filled in, or an addition to it for a standard the template
 * lists, shown as a redline the author accepts or rejects. The prompt holds that section's text and, for a standard,
 * its reference, title and (public domain only) official text: no patient data (the generator has none) and nothing
 * of another project. Every call is logged (pg_llm_calls: model, prompt hash, tokens, time, outcome, decision).
 */

export interface AssistConfig {
  url: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

export function assistConfig(
  config: Pick<Config, 'ASSIST_URL' | 'ASSIST_MODEL' | 'ASSIST_API_KEY' | 'ASSIST_TIMEOUT_SECONDS'>,
): AssistConfig | null {
  if (!config.ASSIST_URL) return null;
  return {
    url: config.ASSIST_URL.replace(/\/+$/, ''),
    model: config.ASSIST_MODEL,
    apiKey: config.ASSIST_API_KEY ?? null,
    timeoutMs: config.ASSIST_TIMEOUT_SECONDS * 1000,
  };
}

const NOT_CONFIGURED = 'Not found.';

/** The assistant, or 404 as if the feature did not exist (it does not, until the operator configures it). */
export function requireAssist(config: AssistConfig | null): AssistConfig {
  if (!config) throw notFound(NOT_CONFIGURED);
  return config;
}

const REWRITES: Record<Exclude<AssistAction, 'address_standard'>, string> = {
  clearer: 'Rewrite it to be clearer and easier to follow, keeping every requirement.',
  shorter: 'Rewrite it shorter, keeping every requirement.',
  formal: 'Rewrite it in a more formal policy register, keeping every requirement.',
  plain: 'Rewrite it in plain language a new staff member understands, keeping every requirement.',
};

/** The standard an address_standard call asks about, as the project's frameworks know it. */
export interface StandardText {
  framework: string;
  ref_id: string;
  title: string | null;
  /** The element's official text where it is public domain (CMS regulation), else null: identifiers only. */
  text: string | null;
}

export function refinePrompt(
  sectionKey: TemplateSectionKey,
  action: AssistAction,
  html: string,
  standard: StandardText | null = null,
) {
  const task =
    action === 'address_standard'
      ? 'Keep the section as it is and add what it needs so that it addresses the requirement below, as sentences ' +
        `or list items that name its reference (${standard?.ref_id ?? ''}).`
      : REWRITES[action];
  const requirement = standard
    ? `\n\nRequirement: ${standard.framework} ${standard.ref_id}${standard.title ? ` ${standard.title}` : ''}` +
      (standard.text ? `\n${standard.text}` : '')
    : '';
  return [
    {
      role: 'system',
      content:
        'You edit hospital policies. You receive one section of a policy as HTML. ' +
        `${task} Keep every placeholder written like {{name}} exactly as it is. ` +
        'Do not add facts, names, numbers or regulations that are not in the text' +
        (standard ? ' or the requirement. ' : '. ') +
        'Answer with the whole section only, as HTML using <p>, <ul>, <ol>, <li>, <strong> and <em>.',
    },
    { role: 'user', content: `Section: ${TEMPLATE_SECTION_TITLES[sectionKey]}\n\n${html}${requirement}` },
  ];
}

/**
 * The standard to address: one the template version lists (nothing else reaches the prompt), with its title and
 * public-domain text from a framework this project sees (built in, or its own). A 400 names any other.
 */
async function standardToAddress(
  db: DbOrTx,
  projectId: number,
  listed: readonly StandardRef[],
  wanted: StandardRef,
): Promise<StandardText> {
  const ref = listed.find((r) => r.framework === wanted.framework && r.ref_id === wanted.ref_id);
  if (!ref) {
    const message = `${wanted.framework} ${wanted.ref_id} is not a standard this template lists.`;
    throw new AppError('VALIDATION_FAILED', message, { standard: [message] });
  }
  const [node] = await db
    .select({ title: stdNodes.title, text: stdNodes.officialText, policy: stdFrameworks.textPolicy })
    .from(stdNodes)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .where(
      and(
        eq(stdFrameworks.code, ref.framework),
        eq(stdNodes.refId, ref.ref_id),
        or(isNull(stdFrameworks.projectId), eq(stdFrameworks.projectId, projectId)),
      ),
    )
    .orderBy(stdFrameworks.projectId)
    .limit(1);
  return {
    framework: ref.framework,
    ref_id: ref.ref_id,
    title: node?.title ?? null,
    text: node?.policy === 'public_domain' ? (node.text ?? null) : null,
  };
}

/** The model's answer as section HTML: code fences off, plain text as paragraphs, then the rich-text policy. */
export function suggestionHtml(answer: string): string {
  const text = answer
    .trim()
    .replace(/^```(?:html)?\s*/i, '')
    .replace(/\s*```$/, '')
    .trim();
  const html = /<(p|ul|ol|li|h[1-6])[\s>]/i.test(text)
    ? text
    : text
        .split(/\n{2,}/)
        .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`)
        .join('');
  return sanitizeHtml(html);
}

interface Completion {
  choices?: { message?: { content?: string } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export async function refineSection(
  db: DbOrTx,
  actor: GeneratorActor,
  config: AssistConfig,
  input: RefineInput,
  now: Date,
) {
  // The template must be one this project may use; a standard must be one it lists.
  const { body } = await loadTemplateVersion(db, actor, input.template_version_id);
  const standard = input.standard ? await standardToAddress(db, actor.projectId, body.standards, input.standard) : null;
  const current = sanitizeHtml(input.html);
  const messages = refinePrompt(input.section_key, input.action, current, standard);
  const prompt = JSON.stringify(messages);
  const started = Date.now();
  let outcome = 'ok';
  let completion: Completion | null = null;
  try {
    const response = await fetch(`${config.url}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: config.model, messages, temperature: 0.2, stream: false }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    if (!response.ok) outcome = `http_${response.status}`;
    else completion = (await response.json()) as Completion;
  } catch (error) {
    outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
  }
  const answer = completion?.choices?.[0]?.message?.content ?? '';
  const suggestion = outcome === 'ok' ? suggestionHtml(answer) : '';
  if (outcome === 'ok' && !suggestion.replace(/<[^>]*>/g, '').trim()) outcome = 'empty';
  const redline = outcome === 'ok' ? redlineHtml(current, suggestion) : null;
  // The section handed back as it was is no suggestion either: nothing for the author to decide.
  if (redline && redline.insertions + redline.deletions === 0) outcome = 'unchanged';
  const [call] = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(pgLlmCalls)
      .values({
        projectId: actor.projectId,
        templateVersionId: input.template_version_id,
        sectionKey: input.section_key,
        action: input.action,
        model: config.model,
        promptHash: sha256(prompt),
        promptTokens: completion?.usage?.prompt_tokens ?? null,
        completionTokens: completion?.usage?.completion_tokens ?? null,
        durationMs: Date.now() - started,
        outcome,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: pgLlmCalls.id });
    await generatorAudit(
      tx,
      actor,
      'assist_called',
      { type: 'pg_llm_call', id: rows[0]!.id },
      {
        section: input.section_key,
        action: input.action,
        ...(standard ? { standard: `${standard.framework} ${standard.ref_id}` } : {}),
        model: config.model,
        outcome,
      },
      now,
    );
    return rows;
  });
  if (outcome !== 'ok' || !redline) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      outcome === 'empty' || outcome === 'unchanged'
        ? 'The writing assistant gave no suggestion for this section. Try another action.'
        : 'The writing assistant did not answer. Try again later; the policy itself does not need it.',
    );
  }
  return { call_id: call!.id, html: suggestion, redline: { ...redline, html: sanitizeHtml(redline.html) } };
}

/** The author's decision on a suggestion, once (a second answer is a 409). */
export async function decideSuggestion(
  db: DbOrTx,
  actor: GeneratorActor,
  callId: number,
  accepted: boolean,
  now: Date,
) {
  await db.transaction(async (tx) => {
    const [call] = await tx
      .select()
      .from(pgLlmCalls)
      .where(and(eq(pgLlmCalls.projectId, actor.projectId), eq(pgLlmCalls.id, callId)))
      .for('update');
    if (!call || call.createdBy !== actor.userId || call.outcome !== 'ok') throw notFound('Suggestion not found.');
    const [updated] = await tx
      .update(pgLlmCalls)
      .set({ accepted })
      .where(and(eq(pgLlmCalls.id, call.id), isNull(pgLlmCalls.accepted)))
      .returning({ id: pgLlmCalls.id });
    if (!updated) throw new AppError('CONFLICT', 'This suggestion was already answered.');
    await generatorAudit(
      tx,
      actor,
      accepted ? 'assist_accepted' : 'assist_rejected',
      {
        type: 'pg_llm_call',
        id: call.id,
      },
      {},
      now,
    );
  });
}
