// npm run bench:monitoring-data: monitoring data at scale (issue 9), on a real PostgreSQL through the real services.
//   - import: CSV files of BENCH_IMPORT_ROWS / 10 and BENCH_IMPORT_ROWS rows (1,000,000 by default, about 45 MB) are
//     uploaded into their chunks, their settings saved and committed in one transaction each. Target: flat memory,
//     i.e. the growth of peak RSS (sampled every 50 ms) for the large file is under 1.5 times that of the small one.
//     The npm script caps the heap (--max-old-space-size=192): uncapped, V8 grows the heap lazily instead of
//     collecting, and RSS then shows V8's appetite rather than what the import needs.
//   - series: a rate over 100,000 rows (60 months x 1,667 rows), read from the database, grouped by month and
//     evaluated (evaluateMeasurePeriods), then SPC (buildSeries). Target: p95 < 200 ms.
// Uses BENCH_DATABASE_URL or an embedded PostgreSQL in a temporary folder. Creates and drops its own database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportSettings } from '@portal/shared';
import { systemClock } from '../packages/server/src/lib/clock.js';
import { waitForImport } from '../packages/server/src/modules/monitoring/imports.commit.js';
import {
  saveImportSettings,
  startCommit,
  uploadImport,
} from '../packages/server/src/modules/monitoring/imports.service.js';
import { evaluateMeasurePeriods } from '../packages/server/src/modules/monitoring/measure-values.js';
import { buildSeries } from '../packages/server/src/modules/monitoring/series.build.js';
import type { MonitoringActor } from '../packages/server/src/policies/monitoring.js';
import { addMember, createProject, createUser, setMainRole } from '../packages/server/test/factories.js';
import { percentile, withBenchDatabase } from './harness.js';

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const SERIES_ROWS = 100_000;
const SERIES_RUNS = Number(process.env.BENCH_SERIES_RUNS ?? 30);
const MB = 1024 * 1024;

/** Writes the CSV to disk (streamed, so the generator does not count against the import's memory). */
async function writeCsv(file: string, rows: number) {
  const out = fs.createWriteStream(file);
  out.write('date,ward,falls,patient_days,note\n');
  const wards = ['4 West', '5 East', 'ICU', 'Maternity', 'Oncology'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2020, 0, 1 + (i % 2_000))).toISOString().slice(0, 10);
    const line = `${day},${wards[i % 5]},${i % 7},${200 + (i % 50)},"row ${i}, checked"\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function memorySampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

async function main() {
  await withBenchDatabase(async (handle) => {
    const db = handle.db;
    const project = await createProject(db, { name: 'Data bench', activeApps: ['monitoring'] });
    const admin = await createUser(db, { firstName: 'Bench', lastName: 'Admin' });
    await addMember(db, project.id, admin.id, 'admin');
    await setMainRole(db, project.id, admin.id, 'monitoring', 'monitoring_admin');
    const actor: MonitoringActor = {
      userId: admin.id,
      projectId: project.id,
      isSuperadmin: false,
      role: 'monitoring_admin',
      rules: [],
      ip: null,
      requestId: null,
    };
    const q = (text: string, params: unknown[] = []) => handle.pool.query(text, params);
    const log = { error: (object: unknown, message?: string) => console.error(message, object) };

    // ---------------------------------------------------------------- import
    /** Imports a generated file of `rows` rows into a new dataset; answers the growth of peak RSS over the start. */
    const importRows = async (rows: number): Promise<number> => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-csv-')), 'rows.csv');
      await writeCsv(file, rows);
      const size = fs.statSync(file).size;
      const {
        rows: [dataset],
      } = await q(`insert into mon_datasets (project_id, name) values ($1, $2) returning id`, [
        project.id,
        `Import bench ${rows}`,
      ]);
      global.gc?.();
      const before = process.memoryUsage().rss;
      const sampler = memorySampler();
      const started = performance.now();
      const uploaded = await uploadImport(
        db,
        actor,
        dataset.id,
        { fileName: 'rows.csv', stream: fs.createReadStream(file, { highWaterMark: 256 * 1024 }) },
        systemClock.now(),
      );
      const uploadMs = performance.now() - started;
      const settings: ImportSettings = {
        delimiter: uploaded.detected.delimiter,
        encoding: uploaded.detected.encoding,
        has_header: true,
        columns: uploaded.detected.columns.map((column) => ({
          source: column.source,
          skip: false,
          key: column.key,
          label: column.label,
          type: column.type,
        })),
        time_column: 'date',
        date_format: 'YYYY-MM-DD',
        mode: 'append',
        error_policy: 'abort',
        range_from: null,
        range_to: null,
        key_columns: [],
      };
      await saveImportSettings(db, actor, uploaded.id, settings, systemClock.now());
      const commitStarted = performance.now();
      await startCommit(db, actor, uploaded.id, log, systemClock);
      const outcome = await waitForImport(uploaded.id);
      const commitMs = performance.now() - commitStarted;
      const peak = sampler.stop();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      if (outcome?.status !== 'committed' || outcome.rowsOk !== rows) {
        throw new Error(`import did not commit every row: ${JSON.stringify(outcome)}`);
      }
      console.log(
        `import ${rows.toLocaleString('en-US')} rows (${(size / MB).toFixed(1)} MB): upload ` +
          `${(uploadMs / 1000).toFixed(1)} s, commit ${(commitMs / 1000).toFixed(1)} s ` +
          `(${Math.round(rows / (commitMs / 1000)).toLocaleString('en-US')} rows/s), peak RSS ${(peak / MB).toFixed(0)} MB, ` +
          `${((peak - before) / MB).toFixed(0)} MB above the ${(before / MB).toFixed(0)} MB before it`,
      );
      return peak - before;
    };
    // Flat memory: a file ten times larger must not need (much) more memory. The small import runs first, so the
    // large one cannot profit from memory the small one made the process take.
    const smallGrowth = await importRows(Math.round(IMPORT_ROWS / 10));
    const largeGrowth = await importRows(IMPORT_ROWS);
    const ratio = largeGrowth / Math.max(smallGrowth, 8 * MB);
    console.log(
      `import memory growth, ${IMPORT_ROWS.toLocaleString('en-US')} rows over ${Math.round(IMPORT_ROWS / 10).toLocaleString('en-US')} rows: ` +
        `${ratio.toFixed(2)} (target: flat, < 1.5) ${ratio < 1.5 ? 'OK' : 'OVER'}`,
    );

    // ---------------------------------------------------------------- series
    const {
      rows: [seriesSet],
    } = await q(
      `insert into mon_datasets (project_id, name, time_column, columns, version)
       values ($1, 'Series bench', 'date', $2::jsonb, 1) returning id`,
      [
        project.id,
        JSON.stringify([
          { key: 'date', label: 'Date', type: 'date', phi: false },
          { key: 'falls', label: 'Falls', type: 'number', phi: false },
          { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
        ]),
      ],
    );
    const {
      rows: [seriesImport],
    } = await q(
      `insert into mon_imports (project_id, dataset_id, file_name, size, sha256, status)
       values ($1, $2, 'series.csv', 1, 'x', 'committed') returning id`,
      [project.id, seriesSet.id],
    );
    await q(
      `insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
       select $1, $2, $3, g + 1, date '2021-01-01' + (g % 1826),
              jsonb_build_object('date', (date '2021-01-01' + (g % 1826))::text, 'falls', g % 3,
                                 'patient_days', 20 + g % 11)
         from generate_series(0, $4 - 1) g`,
      [project.id, seriesSet.id, seriesImport.id, SERIES_ROWS],
    );
    await q('analyze mon_rows');
    const formulas = {
      numerator: 'sum(falls)',
      denominator: 'sum(patient_days)',
      value_expr: '',
      usesDenominator: true,
      grain: 'month' as const,
    };
    const times: number[] = [];
    const readTimes: number[] = [];
    const databaseTimes: number[] = [];
    const computeTimes: number[] = [];
    let points = 0;
    for (let i = 0; i < SERIES_RUNS + 3; i++) {
      const start = performance.now();
      const { periods, strata, readMs, computeMs } = await evaluateMeasurePeriods(
        db,
        project.id,
        seriesSet.id,
        formulas,
      );
      const read = performance.now() - start;
      const series = buildSeries({
        periods,
        grain: 'month',
        type: 'rate',
        chart: 'u',
        ruleProfile: 'healthcare',
        direction: 'down',
        multiplier: 1000,
        unitLabel: 'per 1,000 patient days',
        targets: [],
        benchmarks: [],
        annotations: [],
        phases: [],
        baseline: null,
        today: new Date(),
        measureId: null,
        formulaVersion: 1,
        formulaHash: null,
        datasetVersion: 1,
        stratum: null,
        strata,
      });
      const elapsed = performance.now() - start;
      points = series.points.length;
      if (i >= 3) {
        times.push(elapsed);
        readTimes.push(read);
        databaseTimes.push(readMs ?? 0);
        computeTimes.push(computeMs ?? 0);
      }
    }
    const p95 = percentile(times, 95);
    console.log(
      `series over ${SERIES_ROWS.toLocaleString('en-US')} rows (${points} monthly points)       ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms (reading and evaluating rows p95 ` +
        `${percentile(readTimes, 95).toFixed(1)} ms) (target p95 < 200 ms: ${(p95 / 200).toFixed(2)} of it) ` +
        `${p95 < 200 ? 'OK' : 'OVER'}`,
    );
    console.log(
      `  of which waiting on PostgreSQL p50 ${percentile(databaseTimes, 50).toFixed(1)} ms, grouping and evaluating ` +
        `(CPU) p50 ${percentile(computeTimes, 50).toFixed(1)} ms`,
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
