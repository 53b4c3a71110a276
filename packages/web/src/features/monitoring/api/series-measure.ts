import { type Series, type SpcChart, type SpcRuleSet, seriesSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringKey, monitoringPath } from './keys';

export type { Series };

/** What a chart asks of a measure's series; null = the measure's own setting (or all rows, the whole range). */
export interface SeriesParams {
  chart: SpcChart;
  stratum: string | null;
  from: string | null;
  to: string | null;
  rule_profile: SpcRuleSet | null;
}

function seriesQuery(params: SeriesParams): string {
  const query = new URLSearchParams({ chart: params.chart });
  if (params.stratum !== null) query.set('stratum', params.stratum);
  if (params.from) query.set('from', params.from);
  if (params.to) query.set('to', params.to);
  if (params.rule_profile) query.set('rule_profile', params.rule_profile);
  return query.toString();
}

/** GET .../measures/{id}/series?chart=&stratum=&from=&to=&rule_profile=: points, lines and signals of a measure. */
export function getSeries(projectId: string, measureId: number, params: SeriesParams, signal?: AbortSignal) {
  return apiFetch(`${monitoringPath(projectId)}/measures/${measureId}/series?${seriesQuery(params)}`, {
    signal,
    schema: seriesSchema,
  });
}

/**
 * The series of a measure as a chart asks for it. `live` (the editor's preview) keeps showing the previous series
 * while the next one loads, so the preview does not flash at each change.
 */
export function seriesQueryOptions(projectId: string, measureId: number | null, params: SeriesParams) {
  return queryOptions({
    queryKey: [...monitoringKey(projectId), 'series', measureId, params] as const,
    queryFn: ({ signal }) => getSeries(projectId, measureId ?? 0, params, signal),
    enabled: measureId !== null,
  });
}

export function useSeries(projectId: string, measureId: number | null, params: SeriesParams, live = false) {
  return useQuery({
    ...seriesQueryOptions(projectId, measureId, params),
    ...(live ? { placeholderData: keepPreviousData } : {}),
  });
}

/** GET .../measures/{id}/series.csv?...: the same points as a spreadsheet (the "Export CSV" link). */
export function seriesCsvUrl(projectId: string, measureId: number, params: SeriesParams): string {
  return `${monitoringPath(projectId)}/measures/${measureId}/series.csv?${seriesQuery(params)}`;
}
