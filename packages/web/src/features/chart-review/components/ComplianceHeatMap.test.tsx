import { describe, expect, it } from 'vitest';
import { render, text } from '../../../test/render';
import { ComplianceHeatMap, heatBand } from './ComplianceHeatMap';
import { rows } from './cr-test-fixtures';

describe('ComplianceHeatMap', () => {
  it('bands a cell by its rate against the target, greys n < 5 and leaves empty cells blank', () => {
    expect(heatBand({ rate: 0.95, n: 20 }, 0.9)).toBe('meets');
    expect(heatBand({ rate: 0.9, n: 5 }, 0.9)).toBe('meets');
    expect(heatBand({ rate: 0.85, n: 5 }, 0.9)).toBe('near');
    expect(heatBand({ rate: 0.79, n: 12 }, 0.9)).toBe('below');
    expect(heatBand({ rate: 0.2, n: 4 }, 0.9)).toBe('small');
    expect(heatBand({ rate: null, n: 0 }, 0.9)).toBe('none');
  });

  it('is a table of questions by unit with the rate and n as text in each cell, and a legend', async () => {
    await render(
      <ComplianceHeatMap
        target={0.9}
        units={['Ward A', 'Ward B']}
        rows={[
          {
            key: 'pain_score',
            text: 'Is a pain score recorded?',
            cells: [
              { unit: 'Ward A', rate: 0.95, n: 20 },
              { unit: 'Ward B', rate: 0.5, n: 2 },
            ],
          },
          {
            key: 'care_plan',
            text: 'Is there a care plan?',
            cells: [
              { unit: 'Ward A', rate: 0.7, n: 10 },
              { unit: 'Ward B', rate: null, n: 0 },
            ],
          },
        ]}
      />,
    );
    const table = 'table[aria-label="Compliance by question and unit"]';
    expect([...document.querySelectorAll(`${table} thead th`)].map((th) => th.textContent)).toEqual([
      'Question',
      'Ward A',
      'Ward B',
    ]);
    expect(rows(table)).toEqual([
      ['Is a pain score recorded?', '95%n = 20', '50%n = 2, fewer than 5 cases'],
      ['Is there a care plan?', '70%n = 10, below target', '— no applicable answers'],
    ]);
    const bands = [...document.querySelectorAll(`${table} td`)].map((td) => td.getAttribute('data-band'));
    expect(bands).toEqual(['meets', 'small', 'below', 'none']);
    expect(text()).toContain('Fewer than 5 cases: not rated');
    expect(text()).toContain('At or above target');
  });

  it('says so when there is nothing to compare', async () => {
    await render(<ComplianceHeatMap target={0.9} units={[]} rows={[]} />);
    expect(text()).toContain('No units or questions to compare for this period.');
  });
});
