import { type InsightDraft, RULE_LABELS, type Series, type SeriesPoint, SPC_RULES, type SpcRule } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monPages } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { pageMeasureSeries } from './charts.service.js';
import { requirePageAccess } from './page-access.js';

/**
 * Key-insight drafts written from the detected signals (issue 9; DOMAIN.md 1.11 "go beyond" 3). The text is
 * deterministic: the same series always give the same words, so an author can trust and edit it. A draft is never
 * saved by this call; the author saves it as a key insight if they want it.
 */

const KIND: Record<SeriesPoint['variation'], string> = {
  improvement: 'special-cause improvement',
  concern: 'special-cause concern',
  neutral: 'special-cause variation',
  common: 'special-cause variation',
};

const ASSURANCE: Record<NonNullable<Series['summary']['assurance']>, string> = {
  pass: 'target met consistently',
  fail: 'target missed consistently',
  hit_and_miss: 'target met in some periods and missed in others',
};

/** Which rule's count the sentence gives: a run first, then a point beyond the limits, then a trend. */
const PRIORITY: SpcRule[] = ['shift', 'outside_limits', 'trend', ...SPC_RULES];

const points = (n: number) => (n === 1 ? '1 point' : `${n} points`);

function detail(rule: SpcRule, flagged: readonly SeriesPoint[]): string {
  const hits = flagged.filter((p) => p.signals.includes(rule));
  const last = hits[hits.length - 1] as SeriesPoint;
  const below = last.value !== null && last.cl !== null && last.value < last.cl;
  switch (rule) {
    case 'shift':
      return `${points(hits.length)} ${below ? 'below' : 'above'} the centre line`;
    case 'outside_limits':
      return `${points(hits.length)} ${below ? 'below the lower' : 'above the upper'} limit`;
    case 'trend': {
      const first = hits[0] as SeriesPoint;
      const falling = (last.value ?? 0) < (first.value ?? 0);
      return `${points(hits.length)} ${falling ? 'falling' : 'rising'} in a row`;
    }
    default:
      return `${points(hits.length)} flagged`;
  }
}

/**
 * One sentence for a measure with a signal in its latest phase, e.g. "Falls: special-cause improvement since
 * Mar 2026 (8 points below the centre line, rule: A run of points on one side of the centre line); target met
 * consistently." Null when the latest phase has no signal.
 */
export function signalSentence(name: string, series: Series): string | null {
  const phase = Math.max(-1, ...series.points.map((p) => p.phase));
  const signalled = series.points.filter((p) => p.phase === phase && p.signals.length > 0);
  const last = signalled[signalled.length - 1];
  if (!last) return null;
  // The signals of the latest reading (same variation) tell the story; an older opposite one is history.
  const flagged = signalled.filter((p) => p.variation === last.variation);
  const first = flagged[0] as SeriesPoint;
  const fired = new Set(flagged.flatMap((p) => p.signals));
  const rules = SPC_RULES.filter((r) => fired.has(r));
  const main = PRIORITY.find((r) => fired.has(r)) as SpcRule;
  const ruleText = `${rules.length === 1 ? 'rule' : 'rules'}: ${rules.map((r) => RULE_LABELS[r]).join('; ')}`;
  const assurance = series.summary.assurance ? `; ${ASSURANCE[series.summary.assurance]}` : '';
  return `${name}: ${KIND[last.variation]} since ${first.label} (${detail(main, flagged)}, ${ruleText})${assurance}.`;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** The draft for a page from its measures' series (pure: the tests read it directly). */
export function draftFromSeries(
  pageTitle: string,
  entries: readonly { name: string; series: Series | null }[],
): InsightDraft {
  const sentences: string[] = [];
  const common: string[] = [];
  const noData: string[] = [];
  let latest: { period: string; label: string } | null = null;
  for (const { name, series } of entries) {
    const complete = series?.points.filter((p) => !p.provisional && p.value !== null) ?? [];
    const end = complete[complete.length - 1];
    if (!series || !end) {
      noData.push(name);
      continue;
    }
    if (!latest || end.period > latest.period) latest = { period: end.period, label: end.label };
    const sentence = signalSentence(name, series);
    if (sentence) sentences.push(sentence);
    else common.push(name);
  }
  const lines = [...sentences];
  if (common.length) lines.push(`Common-cause variation only (no signal in the latest phase): ${common.join('; ')}.`);
  if (noData.length) lines.push(`No data to read yet: ${noData.join('; ')}.`);
  if (entries.length === 0) lines.push('This page has no measures yet.');
  const title = `Signals on ${pageTitle}${latest ? `, ${latest.label}` : ''}`;
  return { title: title.length > 200 ? `${title.slice(0, 199)}…` : title, body: lines.map(paragraph).join('') };
}

/** POST /pages/{pageId}/insights/draft: needs edit access to the page (the route checks the key-insights section). */
export async function draftInsight(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
  today: Date,
): Promise<InsightDraft> {
  await requirePageAccess(db, actor, pageId, 'edit');
  const [page] = await db
    .select({ title: monPages.title })
    .from(monPages)
    .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, pageId)));
  if (!page) throw notFound('Page not found.');
  const entries = await pageMeasureSeries(db, actor, pageId, today);
  const draft = draftFromSeries(
    page.title,
    entries.map((e) => ({ name: e.measure.name, series: e.series })),
  );
  return { title: draft.title, body: sanitizeHtml(draft.body) };
}
