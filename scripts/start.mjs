// `npm start`: install what is missing, build, and run the portal on the embedded database with demo data.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkNode, ensureBuilt, ensureInstalled } from './ensure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
checkNode();
ensureInstalled();
ensureBuilt();

const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  cwd: root,
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { NODE_ENV: 'production', ...process.env },
});

// Pass the server's log through, and greet the person at the terminal once it is ready.
let buffered = '';
server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffered += chunk;
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    const ready = line.match(/"msg":"Portal ready at ([^"]+)"/);
    if (ready) banner(ready[1]);
    if (line.includes('"msg":"Demo logins:')) demoBanner();
  }
});

function banner(url) {
  console.log(`\n  Healthcare Quality Portal is running at ${url}\n  Stop it with Ctrl-C.\n`);
}

function demoBanner() {
  console.log(
    [
      '  Demo logins (password Kx7#qPv9!mZt2$Lw):',
      '    superadmin@example.com  superadmin',
      '    admin@example.com       project admin of Demo Facility',
      '    member@example.com      member with policy and monitoring roles',
      '    simple@example.com      member with no main role',
      '',
    ].join('\n'),
  );
}

// Ctrl-C reaches the server too (same process group): wait for its graceful shutdown instead of dying first.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
