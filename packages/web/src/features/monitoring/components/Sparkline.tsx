interface SparklineProps {
  /** Oldest first; null is a gap (no value that period). */
  values: readonly (number | null)[];
  /** What the line shows, read by screen readers (e.g. "Falls, last 24 periods: from 3.1 to 2.4"). */
  label: string;
  color?: string;
  width?: number;
  height?: number;
}

const PAD = 2;

/** Where each value sits in a width x height box (null for gaps), the lowest value at the bottom. */
function place(values: readonly (number | null)[], width: number, height: number): ([number, number] | null)[] {
  const present = values.filter((v): v is number => v !== null);
  const min = Math.min(...present);
  const max = Math.max(...present);
  const step = values.length > 1 ? (width - PAD * 2) / (values.length - 1) : 0;
  return values.map((value, i) => {
    if (value === null) return null;
    const y = max === min ? height / 2 : PAD + (1 - (value - min) / (max - min)) * (height - PAD * 2);
    return [PAD + i * step, y];
  });
}

const xy = ([x, y]: [number, number]) => `${x.toFixed(1)} ${y.toFixed(1)}`;

/**
 * The path of a sparkline: a new segment (M) after each gap, so a missing period is never bridged; a value alone
 * between gaps gets a zero-length stroke (h0), which round caps show as a dot.
 */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number): string {
  let path = '';
  let run = 0;
  const endRun = () => {
    if (run === 1) path += 'h0';
    run = 0;
  };
  for (const spot of place(values, width, height)) {
    if (spot === null) {
      endRun();
      continue;
    }
    path += `${run > 0 ? 'L' : 'M'}${xy(spot)}`;
    run += 1;
  }
  endRun();
  return path;
}

/** A tiny trend line for tables (DOMAIN.md 1.2: hand-written SVG, no chart library), a dot on the latest value. */
export function Sparkline({ values, label, color = '#495057', width = 96, height = 24 }: SparklineProps) {
  const path = sparklinePath(values, width, height);
  const last = place(values, width, height).at(-1) ?? null;
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <title>{label}</title>
      {path && (
        <path d={path} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      )}
      {last && <circle cx={last[0]} cy={last[1]} r={2} fill={color} />}
    </svg>
  );
}
