import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { AppError } from '../lib/errors.js';
import { importEcfrEdition } from '../modules/standards/ecfr-import.service.js';
import { readCommandLine } from './command-line.js';

const USAGE = `Usage: npm run ecfr:import -- <part.xml> [--as-of YYYY-MM-DD]

Loads an edition of 42 CFR Part 482 from the official eCFR XML as a built-in framework every project sees, with the
crosswalk from the edition before it (docs/standards.md "Editions from the eCFR"). Download the XML with
  https://www.ecfr.gov/api/versioner/v1/full/<YYYY-MM-DD>/title-42.xml?part=482
--as-of gives the date of the text when the file does not say it. On the embedded database, stop the portal first.`;

/** npm run ecfr:import: what a superadmin does on the standards screens, for an operator with the file. */
async function main(): Promise<number> {
  const args = readCommandLine(
    () =>
      parseArgs({
        allowPositionals: true,
        options: { 'as-of': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      }),
    USAGE,
    (count) => count === 1,
  );
  if (typeof args === 'number') return args;
  const xml = readFileSync(args.positionals[0]!, 'utf8');
  const config = loadConfig();
  const opened = await openDatabase(config, () => {});
  try {
    const result = await importEcfrEdition(
      opened.database.db,
      { userId: null, isSuperadmin: true },
      { xml, asOf: args.values['as-of'] ?? null },
      new Date(),
    );
    console.log(
      `Loaded ${result.code} ${result.edition}: ${result.sections} sections, ${result.paragraphs} paragraphs` +
        ` (${result.in_force_later} in force from a later date).`,
    );
    console.log(
      result.previous_edition
        ? `Crosswalk from edition ${result.previous_edition}: ${result.mappings} mappings.`
        : 'No earlier edition of this code: no crosswalk.',
    );
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      const details = Object.values(error.errors ?? {}).flat();
      console.error(details.length > 0 ? details.join('\n') : error.message);
      return 1;
    }
    throw error;
  } finally {
    await opened.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(
      error instanceof ConfigError ? error.message : `Could not load the edition: ${(error as Error).message}`,
    );
    process.exit(2);
  },
);
