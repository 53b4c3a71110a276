import { describe, expect, it } from 'vitest';
import { render, text } from '../../../test/render';
import { summary } from './charts-test-fixtures';
import { MeasureSummaryTable } from './MeasureSummaryTable';

const row = (id: number) => document.querySelector<HTMLElement>(`[data-measure-id="${id}"]`)!;

describe('MeasureSummaryTable', () => {
  it('shows the variation and assurance readings as icons with words, never colour alone', async () => {
    await render(
      <MeasureSummaryTable
        measures={[
          summary({ measure_id: 1, name: 'Falls', variation: 'improvement', assurance: 'pass' }),
          summary({ measure_id: 2, name: 'CLABSI', variation: 'concern', assurance: 'fail', signals: ['shift'] }),
          summary({ measure_id: 3, name: 'Hand hygiene', variation: 'common', assurance: 'hit_and_miss' }),
          summary({ measure_id: 4, name: 'Pressure ulcers', variation: null, assurance: null }),
        ]}
      />,
    );
    const cases = [
      [1, 'improvement', 'Improvement', 'pass', 'Consistently passing'],
      [2, 'concern', 'Concern', 'fail', 'Consistently failing'],
      [3, 'common', 'Common cause', 'hit_and_miss', 'Hit and miss'],
    ] as const;
    for (const [id, variation, variationText, assurance, assuranceText] of cases) {
      const variationCell = row(id).querySelector(`[data-variation="${variation}"]`)!;
      expect(variationCell.querySelector('svg')).not.toBeNull();
      expect(variationCell.textContent).toBe(variationText);
      const assuranceCell = row(id).querySelector(`[data-assurance="${assurance}"]`)!;
      expect(assuranceCell.querySelector('svg')).not.toBeNull();
      expect(assuranceCell.textContent).toBe(assuranceText);
    }
    expect(text(row(2))).toContain('A run of points on one side of the centre line');
    expect(text(row(4))).toContain('Not enough data');
    expect(text(row(4))).toContain('No target to assure');
  });

  it('shows the latest value with its unit and n, the target, the benchmark and a sparkline', async () => {
    await render(
      <MeasureSummaryTable
        measures={[
          summary({
            measure_id: 1,
            name: 'Falls',
            benchmark: {
              id: 1,
              source: 'NDNQI',
              statistic: 'median',
              percentile: null,
              value: 2.1,
              period_label: '2025',
              as_of: '2025-06-30',
              spec_match: false,
              citation_url: '',
              note: '',
            },
          }),
          summary({ measure_id: 2, name: 'Empty', latest: null, target: null, sparkline: [] }),
        ]}
      />,
    );
    const falls = text(row(1));
    expect(falls).toContain('2.13 per 1,000 patient days');
    expect(falls).toContain('Feb 2026 · n = 31 rows (12/5,623)');
    expect(falls).toContain('2 per 1,000 patient days');
    expect(falls).toContain('NDNQI median, 2025 · as of June 30, 2025');
    expect(falls).toContain('Not comparable');
    const spark = row(1).querySelector('svg[role="img"]')!;
    expect(spark.getAttribute('aria-label')).toBe(
      'Falls, last 4 periods: from 3 per 1,000 patient days to 2.1 per 1,000 patient days',
    );
    expect(text(row(2))).toContain('No data yet');
  });
});
