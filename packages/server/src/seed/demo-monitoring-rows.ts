/**
 * The demo facility's monthly ward data (issue 9): 36 complete months before `now` for three wards, realistic in
 * size (a 250-bed hospital: about 6,000 patient days and 1,200 central line days a month) and drawn from a seeded
 * generator so every demo install shows the same charts. Built in on purpose: falls with injury drop after hourly
 * rounding starts 12 months before the end (a sustained shift the run and control chart rules detect), one month
 * has a CLABSI cluster (a point above the upper limit), and hand hygiene compliance drifts up slowly.
 */

export const DEMO_WARDS = [
  { ward: '4 West Medical', patientDays: 2_600, lineDays: 260, observations: 150 },
  { ward: '5 East Surgical', patientDays: 2_400, lineDays: 240, observations: 140 },
  { ward: 'Intensive Care', patientDays: 900, lineDays: 700, observations: 110 },
] as const;

export const DEMO_MONTHS = 36;
/** Hourly rounding starts this many months before the end of the data. */
export const ROUNDING_MONTHS_BEFORE_END = 12;
/** The CLABSI cluster is this many months before the end. */
export const CLABSI_CLUSTER_MONTHS_BEFORE_END = 7;

export interface DemoWardRow {
  month: string;
  ward: string;
  patient_days: number;
  falls: number;
  falls_with_injury: number;
  central_line_days: number;
  clabsi: number;
  hh_observed: number;
  hh_compliant: number;
}

/** mulberry32: a small seeded generator (the same numbers on every machine). */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Poisson draw by inversion (small means only). */
function poisson(random: () => number, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = random();
  while (p > limit) {
    k++;
    p *= random();
  }
  return k;
}

function binomial(random: () => number, n: number, p: number): number {
  // Normal approximation, rounded and clamped: n is 100+ and p is near 0.85, plenty for demo data.
  const sd = Math.sqrt(n * p * (1 - p));
  const u = Math.max(random(), 1e-12);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.min(n, Math.max(0, Math.round(n * p + z * sd)));
}

/** First day of the month `offset` months after the month of `now` (UTC), as YYYY-MM-DD. */
function monthStart(now: Date, offset: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return d.toISOString().slice(0, 10);
}

export function demoWardRows(now: Date): DemoWardRow[] {
  const random = generator(6);
  const rows: DemoWardRow[] = [];
  for (let m = 0; m < DEMO_MONTHS; m++) {
    const month = monthStart(now, m - DEMO_MONTHS);
    const monthsBeforeEnd = DEMO_MONTHS - m;
    const rounding = monthsBeforeEnd <= ROUNDING_MONTHS_BEFORE_END;
    const cluster = monthsBeforeEnd === CLABSI_CLUSTER_MONTHS_BEFORE_END;
    for (const ward of DEMO_WARDS) {
      const patientDays = Math.round(ward.patientDays * (0.93 + random() * 0.14));
      const lineDays = Math.round(ward.lineDays * (0.9 + random() * 0.2));
      // Falls with injury per 1,000 patient days: about 0.95 before hourly rounding, 0.35 after.
      const injuryRate = rounding ? 0.35 : 0.95;
      const fallsWithInjury = poisson(random, (injuryRate * patientDays) / 1000);
      const falls = fallsWithInjury + poisson(random, (2.6 * patientDays) / 1000);
      // CLABSI per 1,000 central line days: about 1.1, with a cluster in the intensive care unit one month.
      const clabsiMean = (1.1 * lineDays) / 1000 + (cluster && ward.ward === 'Intensive Care' ? 5 : 0);
      const clabsi = poisson(random, clabsiMean);
      const observed = Math.round(ward.observations * (0.9 + random() * 0.2));
      const compliance = Math.min(0.97, 0.84 + m * 0.0017);
      rows.push({
        month,
        ward: ward.ward,
        patient_days: patientDays,
        falls,
        falls_with_injury: fallsWithInjury,
        central_line_days: lineDays,
        clabsi,
        hh_observed: observed,
        hh_compliant: binomial(random, observed, compliance),
      });
    }
  }
  return rows;
}
