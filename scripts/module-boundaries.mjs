// `node scripts/module-boundaries.mjs` (part of `npm run lint` and of `npm test`'s lint step): the module boundaries of
// docs/ARCHITECTURE.md, read from the code's own imports (import, export ... from, import(), vi.mock(), new URL()):
//   web     a feature (packages/web/src/features/<feature>/) imports no other feature; the shared layer (components/,
//           lib/) imports no feature and not app/.
//   server  a module (packages/server/src/modules/<module>/) imports only the public files of another module: at its
//           root, named *.service.ts or *.repository.ts, or visibility.ts or notices.ts. So do the layers the modules
//           stand on (lib/, plugins/, policies/, db/, jobs/, cli/); only the composition roots that wire routes and
//           workers (app.ts, main.ts) and the whole-system seeds and tests (seed/, security/) reach further.
//   both    no files import each other in a circle (packages/server/src, packages/web/src).
// Tests are held to the same rules. Exits 1 with the list of what breaks a rule. Before it reads the code it checks
// itself on a few made-up imports, so a broken parser cannot pass the real code silently.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = 'packages/web/src';
const SERVER = 'packages/server/src';

/** The files another server module may import: what a module offers the others, by its name. */
export const PUBLIC_MODULE_FILE = /^(?:[a-z0-9-]+\.(?:service|repository)|visibility|notices)\.ts$/;

/** The server layers below the modules: they use a module only through its public files, as another module does. */
const SERVER_LAYERS = ['lib', 'plugins', 'policies', 'db', 'jobs', 'cli'];

// ------------------------------------------------------------------------------------------------ reading imports

const SOURCE = /\.(?:ts|tsx|mts)$/;

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : listFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const isString = (node) => node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node));

/** The relative specifiers a file names, with their lines: static, re-exported, dynamic, mocked and worker URLs. */
export function importsOf(fileName, text) {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  const add = (node, typeOnly) => {
    if (!isString(node) || !node.text.startsWith('.')) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ specifier: node.text, line: line + 1, typeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, Boolean(node.importClause?.isTypeOnly));
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier) add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(argument.literal, true);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const [first] = node.arguments;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) add(first, false);
      // vi.mock('./x') and vi.doMock('./x') reach into the module they replace.
      else if (ts.isPropertyAccessExpression(callee) && /^(?:mock|doMock|importActual)$/.test(callee.name.text))
        add(first, false);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      // new URL('./worker.ts', import.meta.url): a worker or an asset of the file.
      add(node.arguments?.[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names (server specifiers say .js for the .ts file), or null. */
function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = /\.js$/.test(specifier)
    ? [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base]
    : [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

/** Every import between files of the tree (paths relative to the repository, with `/`). */
export function readGraph(dirs) {
  const edges = [];
  for (const dir of dirs) {
    for (const file of listFiles(path.join(root, dir))) {
      const from = path.relative(root, file).split(path.sep).join('/');
      for (const { specifier, line, typeOnly } of importsOf(file, fs.readFileSync(file, 'utf8'))) {
        const target = resolve(file, specifier);
        if (!target) continue;
        edges.push({ from, to: path.relative(root, target).split(path.sep).join('/'), line, typeOnly });
      }
    }
  }
  return edges;
}

// ------------------------------------------------------------------------------------------------ the rules

const inside = (file, dir) => (file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : null);

/** The feature (web) or module (server) a file belongs to, and its path inside it. */
function unitOf(file, dir) {
  const rest = inside(file, dir);
  if (rest === null) return null;
  const [name, ...tail] = rest.split('/');
  return tail.length ? { name, path: tail.join('/') } : null;
}

export function boundaryProblems(edges) {
  const problems = [];
  for (const edge of edges) {
    const where = `${edge.from}:${edge.line}`;
    // web: features do not import each other; the shared layer does not import features or the app shell.
    const feature = unitOf(edge.from, `${WEB}/features`);
    const targetFeature = unitOf(edge.to, `${WEB}/features`);
    if (feature && targetFeature && feature.name !== targetFeature.name) {
      problems.push(
        `${where} imports ${edge.to}: feature "${feature.name}" imports feature "${targetFeature.name}"; ` +
          'move what both use to packages/web/src/components/ or lib/',
      );
    }
    const shared = ['components', 'lib'].find((layer) => inside(edge.from, `${WEB}/${layer}`) !== null);
    const upward = ['features', 'app'].find((layer) => inside(edge.to, `${WEB}/${layer}`) !== null);
    if (shared && upward) {
      problems.push(
        `${where} imports ${edge.to}: the shared layer (${shared}/) imports ${upward}/; ` +
          'shared code takes what it needs as props or arguments',
      );
    }
    // server: another module only through its public files.
    const module = unitOf(edge.from, `${SERVER}/modules`);
    const target = unitOf(edge.to, `${SERVER}/modules`);
    if (module && target && module.name !== target.name && !PUBLIC_MODULE_FILE.test(target.path)) {
      problems.push(
        `${where} imports ${edge.to}: module "${module.name}" reaches into module "${target.name}"; ` +
          `use its *.service.ts, *.repository.ts, visibility.ts or notices.ts (or move the piece to src/lib)`,
      );
    }
    const layer = SERVER_LAYERS.find((name) => inside(edge.from, `${SERVER}/${name}`) !== null);
    if (layer && target && !PUBLIC_MODULE_FILE.test(target.path)) {
      problems.push(
        `${where} imports ${edge.to}: ${layer}/ reaches into module "${target.name}"; ` +
          `use its *.service.ts, *.repository.ts, visibility.ts or notices.ts (or move the piece below the modules)`,
      );
    }
  }
  return problems;
}

/** The circles among the files of `dir`: strongly connected components of more than one file (or a self-import). */
export function circles(edges, dir) {
  const next = new Map();
  for (const { from, to } of edges) {
    if (inside(from, dir) === null || inside(to, dir) === null) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from).add(to);
  }
  // Tarjan's algorithm, iteratively (deep chains must not overflow the stack).
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, children: [...(next.get(start) ?? [])], i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      if (frame.i < frame.children.length) {
        const child = frame.children[frame.i++];
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, children: [...(next.get(child) ?? [])], i: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(child)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || next.get(frame.node)?.has(frame.node)) found.push(component.sort());
      }
    }
  }
  return found;
}

function circleProblems(edges) {
  return [SERVER, WEB].flatMap((dir) =>
    circles(edges, dir).map((files) => {
      const members = new Set(files);
      const ties = edges
        .filter((edge) => members.has(edge.from) && members.has(edge.to))
        .map((edge) => `    ${edge.from}:${edge.line} -> ${edge.to}`);
      return (
        `a circle of ${files.length} files in ${dir}; break it by moving what they share into one of them or below ` +
        `them:\n${[...new Set(ties)].join('\n')}`
      );
    }),
  );
}

// ------------------------------------------------------------------------------------------------ self-check

/** Made-up imports each rule must catch, and some it must let pass: a checker that catches nothing fails here. */
function selfCheck() {
  const w = (p) => `${WEB}/${p}`;
  const s = (p) => `${SERVER}/${p}`;
  const edge = (from, to) => ({ from, to, line: 1, typeOnly: false });
  const bad = [
    edge(w('features/a/components/X.tsx'), w('features/b/components/Y.tsx')),
    edge(w('components/spc/Z.tsx'), w('features/a/api/q.ts')),
    edge(s('modules/a/a.service.ts'), s('modules/b/b.routes.ts')),
    edge(s('modules/a/a.service.ts'), s('modules/b/route-kit.ts')),
    edge(s('modules/a/a.test.ts'), s('modules/b/helpers.ts')),
    edge(s('jobs/j.ts'), s('modules/b/b-common.ts')),
    edge(s('policies/p.ts'), s('modules/b/defaults.ts')),
  ];
  const good = [
    edge(w('features/a/components/X.tsx'), w('features/a/api/q.ts')),
    edge(w('features/a/components/X.tsx'), w('components/spc/Z.tsx')),
    edge(w('app/routes.tsx'), w('features/a/components/X.tsx')),
    edge(s('modules/a/a.routes.ts'), s('modules/b/b.service.ts')),
    edge(s('modules/a/a.routes.ts'), s('modules/b/users.repository.ts')),
    edge(s('modules/a/x.ts'), s('modules/b/visibility.ts')),
    edge(s('modules/a/x.ts'), s('modules/a/route-kit.ts')),
    edge(s('jobs/j.ts'), s('modules/b/b.service.ts')),
    edge(s('app.ts'), s('modules/b/b.routes.ts')),
    edge(s('seed/demo.ts'), s('modules/b/b-common.ts')),
  ];
  const caught = boundaryProblems(bad).length;
  const passed = boundaryProblems(good).length === 0;
  const loop = circles([edge(s('a.ts'), s('b.ts')), edge(s('b.ts'), s('c.ts')), edge(s('c.ts'), s('a.ts'))], SERVER);
  const parsed = importsOf(
    'x.tsx',
    "import a from './a';\nimport type { B } from '../b.js';\nexport { c } from './c';\n// import d from './d';\n" +
      "const e = lazy(() => import('./e'));\nvi.mock('../f', () => ({}));\nnew Worker(new URL('./g.ts', import.meta.url));\n",
  ).map((found) => found.specifier);
  const expected = ['./a', '../b.js', './c', './e', '../f', './g.ts'];
  const ok =
    caught === bad.length && passed && loop.length === 1 && loop[0].length === 3 && `${parsed}` === `${expected}`;
  if (!ok) {
    console.error('module-boundaries: the checker failed its own check (rules or import reading are broken).');
    process.exit(2);
  }
}

// ------------------------------------------------------------------------------------------------ main

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  selfCheck();
  const started = Date.now();
  const edges = readGraph([WEB, SERVER]);
  // Far fewer than the thousands of imports the code has: the reading is broken, not the code clean.
  if (edges.length < 1000) {
    console.error(`module-boundaries: only ${edges.length} imports read; the import reading is broken.`);
    process.exit(2);
  }
  const problems = [...boundaryProblems(edges), ...circleProblems(edges)];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length) {
    console.error(`Module boundaries (docs/ARCHITECTURE.md): ${problems.length} problem(s)\n`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(
    `Module boundaries hold: ${edges.length} imports read in ${seconds} s, no feature or module crossed, no circle.`,
  );
}
