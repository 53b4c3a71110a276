/**
 * The words of monitoring, part 1 (issue 8; decision record 008), written once here for the server and the web.
 */

/** A page is drafted, published for everyone who may see it, or archived. */
export const PAGE_STATUSES = ['draft', 'published', 'archived'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** What a person may do on a page, weakest first: a grant, an owner or an admin raises it. */
export const PAGE_ACCESS_LEVELS = ['none', 'view', 'edit', 'manage'] as const;
export type PageAccessLevel = (typeof PAGE_ACCESS_LEVELS)[number];
/** The levels a grant gives (a grant of "none" is no grant). */
export const PAGE_GRANT_LEVELS = ['view', 'edit', 'manage'] as const;
export type PageGrantLevel = (typeof PAGE_GRANT_LEVELS)[number];

export function strongerLevel(a: PageAccessLevel, b: PageAccessLevel): PageAccessLevel {
  return PAGE_ACCESS_LEVELS.indexOf(a) >= PAGE_ACCESS_LEVELS.indexOf(b) ? a : b;
}
export function atLeast(level: PageAccessLevel, wanted: PageAccessLevel): boolean {
  return PAGE_ACCESS_LEVELS.indexOf(level) >= PAGE_ACCESS_LEVELS.indexOf(wanted);
}

/** 'auto': numbers follow the tree; 'manual': people type them (unique per project). */
export const NUMBERING_MODES = ['auto', 'manual'] as const;
export type NumberingMode = (typeof NUMBERING_MODES)[number];

/** The tree is at most this deep, and never deeper than the project's levels. */
export const MAX_PAGE_LEVELS = 8;

/** Icons a level may show in the Analytics table of contents (the web maps each to a Tabler icon). */
export const LEVEL_ICONS = ['folder', 'layers', 'chart', 'target', 'heart', 'shield', 'pill', 'clipboard'] as const;
export type LevelIcon = (typeof LEVEL_ICONS)[number];

/** Levels a new project starts with. */
export const DEFAULT_PAGE_LEVELS: { depth: number; name: string; icon: LevelIcon; may_hold_measures: boolean }[] = [
  { depth: 1, name: 'Domain', icon: 'folder', may_hold_measures: false },
  { depth: 2, name: 'Programme', icon: 'layers', may_hold_measures: true },
  { depth: 3, name: 'Indicator', icon: 'chart', may_hold_measures: true },
];

/** Key insights are drafted, then published on the page. */
export const INSIGHT_STATUSES = ['draft', 'published'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

/** Data requests ("Request Data"): what is asked for and where it stands. */
export const REQUEST_FORMATS = ['table', 'chart', 'csv', 'pdf'] as const;
export type RequestFormat = (typeof REQUEST_FORMATS)[number];
export const DATA_REQUEST_STATUSES = [
  'submitted',
  'triaged',
  'in_progress',
  'delivered',
  'closed',
  'rejected',
  'cancelled',
] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];

/** Measures (issue 9; DOMAIN.md 1.1): what kind of number a measure is. */
export const MEASURE_TYPES = ['proportion', 'rate', 'ratio', 'continuous', 'count', 'time_between'] as const;
export type MeasureType = (typeof MEASURE_TYPES)[number];
export const MEASURE_TYPE_LABELS: Record<MeasureType, string> = {
  proportion: 'Proportion (numerator is part of the denominator)',
  rate: 'Rate (events per exposure, e.g. per 1,000 patient days)',
  ratio: 'Ratio (numerator not part of the denominator)',
  continuous: 'Continuous (e.g. median minutes)',
  count: 'Count of events',
  time_between: 'Time or cases between rare events',
};
/** Which formulas a type needs: a numerator over a denominator, or one value per period. */
export const measureUsesDenominator = (type: MeasureType) =>
  type === 'proportion' || type === 'rate' || type === 'ratio';

export const PERIOD_GRAINS = ['week', 'month', 'quarter', 'year'] as const;
export type PeriodGrain = (typeof PERIOD_GRAINS)[number];
export const IMPROVEMENT_DIRECTIONS = ['up', 'down', 'neutral'] as const;
export type ImprovementDirection = (typeof IMPROVEMENT_DIRECTIONS)[number];

/** CSV import (DOMAIN.md 1.4). */
export const IMPORT_MODES = ['append', 'replace_range', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export const IMPORT_ERROR_POLICIES = ['abort', 'skip'] as const;
export type ImportErrorPolicy = (typeof IMPORT_ERROR_POLICIES)[number];
export const IMPORT_STATUSES = ['uploaded', 'committing', 'committed', 'failed', 'rolled_back'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const DATASET_COLUMN_TYPES = ['number', 'text', 'date', 'boolean'] as const;
export type DatasetColumnType = (typeof DATASET_COLUMN_TYPES)[number];
export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const TARGET_KINDS = ['target', 'threshold', 'stretch'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const BENCHMARK_STATISTICS = ['percentile', 'mean', 'median', 'sir'] as const;
export type BenchmarkStatistic = (typeof BENCHMARK_STATISTICS)[number];
export const PHASE_REASONS = ['definition_change', 'sustained_shift', 'intervention', 'other'] as const;
export type PhaseReason = (typeof PHASE_REASONS)[number];
export const ANNOTATION_KINDS = ['intervention', 'pdsa', 'event', 'data_issue'] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];
