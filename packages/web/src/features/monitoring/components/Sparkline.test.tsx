import { describe, expect, it } from 'vitest';
import { render } from '../../../test/render';
import { Sparkline, sparklinePath } from './Sparkline';

describe('sparklinePath', () => {
  it('starts a new segment after each gap instead of bridging it', () => {
    const path = sparklinePath([1, 2, null, 3, 4], 100, 20);
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.match(/L/g)).toHaveLength(2);
    // Lowest value at the bottom, highest at the top (2 px padding).
    expect(path.startsWith('M2.0 18.0')).toBe(true);
    expect(path.endsWith('L98.0 2.0')).toBe(true);
  });

  it('draws a value alone between gaps as a dot, a flat series mid-height, and nothing without values', () => {
    expect(sparklinePath([1, null, 2, null, 3], 100, 20)).toBe('M2.0 18.0h0M50.0 10.0h0M98.0 2.0h0');
    expect(sparklinePath([5, 5, 5], 100, 20)).toBe('M2.0 10.0L50.0 10.0L98.0 10.0');
    expect(sparklinePath([null, null], 100, 20)).toBe('');
  });
});

describe('Sparkline', () => {
  it('is an image named by its label, with a path and a dot on the latest value', async () => {
    const { container } = await render(<Sparkline values={[3, null, 2, 1]} label="Falls, last 4 periods" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe('Falls, last 4 periods');
    expect(svg.querySelector('path')!.getAttribute('d')!.match(/M/g)).toHaveLength(2);
    expect(svg.querySelector('circle')).not.toBeNull();
  });

  it('puts no dot when the latest period has no value', async () => {
    const { container } = await render(<Sparkline values={[3, 2, null]} label="x" />);
    expect(container.querySelector('circle')).toBeNull();
  });
});
