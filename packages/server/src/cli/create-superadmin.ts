import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadPasswordDictionaries } from '@portal/shared';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { AppError } from '../lib/errors.js';
import { createSuperadmin } from '../modules/users/users.service.js';

/**
 * npm run create-superadmin -- --email you@example.org --username you [--first-name A --last-name B]
 * The password is asked for (hidden) on a terminal, or read from standard input when piped, never from an argument,
 * so it stays out of shell history and process lists.
 */
const USAGE =
  'Usage: npm run create-superadmin -- --email you@example.org --username you [--first-name A] [--last-name B]\n' +
  'The password is read from the terminal (hidden) or from standard input.';

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = '';
    for await (const chunk of process.stdin) data += chunk;
    return data.split(/\r?\n/)[0] ?? '';
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      const output = rl as unknown as { _writeToOutput: (s: string) => void };
      process.stdout.write(question);
      output._writeToOutput = () => {}; // hide typed characters
      rl.question('', (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const password = await ask('Password: ');
  if ((await ask('Repeat password: ')) !== password) throw new Error('The two passwords do not match.');
  return password;
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parseArgs>['values'];
  try {
    ({ values: args } = parseArgs({
      options: {
        email: { type: 'string' },
        username: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help || !args.email || !args.username) {
    console.error(USAGE);
    return args.help ? 0 : 2;
  }
  const config = loadConfig();
  const password = await readPassword();
  await loadPasswordDictionaries();
  const opened = await openDatabase(config, () => {});
  try {
    const user = await createSuperadmin(opened.database.db, {
      email: String(args.email),
      username: String(args.username),
      firstName: String(args['first-name'] ?? ''),
      lastName: String(args['last-name'] ?? ''),
      password,
    });
    console.log(`Superadmin ${user.username} <${user.email}> created (user id ${user.id}).`);
    return 0;
  } finally {
    await opened.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof AppError) {
      const details = Object.values(error.errors ?? {}).flat();
      console.error(details.length ? details.join('\n') : error.message);
    } else if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(`Could not create the superadmin: ${(error as Error).message}`);
    }
    process.exit(1);
  },
);
