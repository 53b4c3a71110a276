import type { MeasureType, SpcRuleSet } from '@portal/shared';

/** Words of the monitoring chart editor (the words every SPC chart shares are in components/spc/series-format.ts). */

/** "a rate measure", "a time-between measure": the words after "Recommended for". */
export const MEASURE_TYPE_WORD: Record<MeasureType, string> = {
  proportion: 'proportion',
  rate: 'rate',
  ratio: 'ratio',
  continuous: 'continuous',
  count: 'count',
  time_between: 'time-between',
};

/** Rule profiles with a one-line explanation for the chart editor. */
export const RULE_SET_TEXT: Record<SpcRuleSet, { label: string; explanation: string }> = {
  anhoej: {
    label: 'Anhøj rules (run charts)',
    explanation:
      'An unusually long run on one side of the centre line, or too few crossings of it; about 5% false signals at any length.',
  },
  ihi_run: {
    label: 'IHI run chart rules',
    explanation:
      'A shift of 6 points, a trend of 5, too few or too many runs, or an astronomical point; applied from 10 points.',
  },
  western_electric: {
    label: 'Western Electric',
    explanation: 'A point beyond 3σ, 2 of 3 beyond 2σ, 4 of 5 beyond 1σ, or 8 in a row on one side.',
  },
  nelson: {
    label: 'Nelson',
    explanation:
      'A point beyond 3σ, 2 of 3 beyond 2σ, 4 of 5 beyond 1σ, 9 in a row on one side, a trend of 6, 14 alternating points, 15 within 1σ or 8 beyond 1σ.',
  },
  healthcare: {
    label: 'Health Care Data Guide (Provost and Murray)',
    explanation: 'A point beyond 3σ, 8 in a row on one side, a trend of 6, 2 of 3 beyond 2σ, or 15 hugging the centre.',
  },
};
