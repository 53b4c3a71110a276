import { type Config, ConfigError } from '../config.js';
import { openDatabase } from '../db/open.js';
import { BackupError, describeDatabase } from '../lib/backup.js';

/**
 * The arguments `parse` reads, or the exit code once the usage is printed: 0 for --help; 2 for an option it does not
 * know or a number of files `filesOk` refuses.
 */
export function readCommandLine<Args extends { positionals: string[]; values: { help?: boolean | undefined } }>(
  parse: () => Args,
  usage: string,
  filesOk: (count: number) => boolean,
): Args | number {
  let args: Args;
  try {
    args = parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (args.values.help) {
    console.log(usage);
    return 0;
  }
  if (!filesOk(args.positionals.length)) {
    console.error(usage);
    return 2;
  }
  return args;
}

/**
 * Runs a backup command and exits with the code it returns. A failure exits 2: a configuration or backup error with
 * its own message (it says what to do), anything else after `failure`.
 */
export function runBackupCommand(main: () => Promise<number>, failure: string): void {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(
        error instanceof ConfigError || error instanceof BackupError
          ? error.message
          : `${failure}: ${(error as Error).message}`,
      );
      process.exit(2);
    },
  );
}

/** An external database (DATABASE_URL): nothing to start, nothing to stop. */
export const externalDatabase = (url: string) => ({
  url,
  description: `the database at ${describeDatabase(url)}`,
  close: async () => {},
});

/**
 * The embedded database in DATA_DIR, started for the command and not migrated (a backup reads it as it is; a restore
 * brings its own schema, and the portal applies newer migrations when it next starts). Throws DataDirLockedError
 * while a portal runs on it.
 */
export async function embeddedDatabase(config: Config) {
  const opened = await openDatabase(config, () => {}, { migrate: false });
  return {
    url: opened.embedded!.connectionString,
    description: `the embedded database in ${config.DATA_DIR}`,
    close: opened.close,
  };
}
