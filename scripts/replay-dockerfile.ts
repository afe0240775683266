// Replays the Dockerfile without a Docker engine, then runs the image's entrypoint against a
// simulated Weblate: proof that the image builds from exactly the files it copies and that
// what it ships runs. From the checkout: node --import tsx scripts/replay-dockerfile.ts
//
// Each stage is an empty folder standing for the image's root, in a temporary folder outside
// the checkout (Node looks for packages in every parent folder, so a stage inside the checkout
// would use the checkout's node_modules unnoticed). Replayed: ARG before the first FROM (its
// default, substituted in FROM), FROM (a node:<major> base image is a Node binary of that major
// first on PATH: this machine's, or one scripts/node-binary.sh installs; or an earlier stage),
// WORKDIR, COPY (from the build context minus .dockerignore, or --from=<stage>), RUN (in a clean
// environment: PATH, HOME inside the stage, and the stage's ENV) and ENV. ENTRYPOINT and CMD are
// taken as the command to run; LABEL and HEALTHCHECK are checked (the OCI labels, the health
// check run in the image once the sync is done). Not replayed: USER (everything runs as the
// current user), whatever else the base image holds, and every other instruction, which stops
// the replay with an error.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Stage {
  name: string | undefined;
  root: string;
  cwd: string;
  env: Record<string, string>;
  /** The folder of the stage's Node binary, first on its PATH. */
  nodeBin: string;
  entrypoint: string[];
  cmd: string[];
  labels: Record<string, string>;
  healthcheck: string[] | null;
}

const context = fileURLToPath(new URL('..', import.meta.url));
const RUN_TIMEOUT_MS = 10 * 60_000;
const CHECK_TIMEOUT_MS = 3 * 60_000;
const SIMULATOR_SIZE = '--projects 1 --components 2 --languages 2 --units 200 --changes 200';

for (let dir = tmpdir(); ; dir = dirname(dir)) {
  if (existsSync(join(dir, 'node_modules'))) throw new Error(`${dir}/node_modules would be used`);
  if (dir === dirname(dir)) break;
}
const work = mkdtempSync(join(tmpdir(), 'weblate-mirror-replay-'));
const children = new Set<ChildProcess>();

function cleanUp(): void {
  // Each child leads a process group of its own, so this also ends what npm started.
  for (const child of children) killGroup(child);
  rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

function say(text: string): void {
  process.stdout.write(`replay: ${text}\n`);
}

/** The instructions, with continued lines joined and comments left out. */
function readInstructions(path: string): { keyword: string; args: string }[] {
  return readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The exec form (a JSON array) as is; the shell form through /bin/sh -c, as Docker runs it. */
function commandOf(args: string): string[] {
  return args.startsWith('[') ? (JSON.parse(args) as string[]) : ['/bin/sh', '-c', args];
}

/** Plain paths only (this project's .dockerignore): a pattern leaves out a path and its contents. */
function readIgnored(): string[] {
  const path = join(context, '.dockerignore');
  if (!existsSync(path)) return [];
  const patterns = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\/|\/$/g, ''))
    .filter((line) => line !== '' && !line.startsWith('#'));
  const unsupported = patterns.find((p) => /[*?[\]!]/.test(p));
  if (unsupported) throw new Error(`.dockerignore pattern ${unsupported}: not replayed`);
  return patterns;
}

const ignored = readIgnored();
function isIgnored(path: string): boolean {
  const rel = relative(context, path);
  return ignored.some((p) => rel === p || rel.startsWith(`${p}/`));
}

/** A path of the stage's filesystem, absolute or relative to its WORKDIR. */
function inStage(stage: Stage, path: string): string {
  return path.startsWith('/') ? join(stage.root, path) : join(stage.cwd, path);
}

function copy(stage: Stage, args: string, stages: Stage[]): void {
  const words = args.split(/\s+/);
  let from: Stage | undefined;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    const name = /^--from=(.+)$/.exec(flag)?.[1];
    from = stages.find((s) => s.name === name);
    if (!from) throw new Error(`COPY ${flag}: not replayed (only --from=<earlier stage>)`);
  }
  const destination = words.pop()!;
  for (const source of words) {
    const path = from ? inStage({ ...from, cwd: from.root }, source) : join(context, source);
    if (!existsSync(path) || (!from && isIgnored(path)))
      throw new Error(`COPY ${source}: not found`);
    // As Docker: a folder's contents go into the destination; a file goes into a destination
    // that ends in / (or takes several sources), else becomes it.
    const isIntoFolder = destination.endsWith('/') || words.length > 1;
    const isFile = !statSync(path).isDirectory();
    const target = inStage(
      stage,
      isIntoFolder && isFile ? join(destination, basename(path)) : destination,
    );
    mkdirSync(dirname(target), { recursive: true });
    cpSync(path, target, { recursive: true, filter: (p) => from !== undefined || !isIgnored(p) });
  }
}

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts a command in a process group of its own, killed after `timeoutMs`. */
function start(
  command: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Started {
  const [file = '', ...args] = command;
  const child = spawn(file.includes('/') ? resolve(cwd, file) : file, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const timer = setTimeout(() => {
    say(`${command.join(' ')}: no end after ${timeoutMs / 1000} s; killing it`);
    killGroup(child);
  }, timeoutMs);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve(code);
    });
  });
  return { child, exited };
}

/** Runs a command to its end; its stdout, also echoed, is returned. */
async function run(command: string[], cwd: string, env: Record<string, string>): Promise<string> {
  const { child, exited } = start(command, cwd, env, RUN_TIMEOUT_MS);
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    process.stdout.write(chunk);
  });
  const code = await exited;
  if (code !== 0) throw new Error(`${command.join(' ')} exited with ${String(code)}`);
  return stdout;
}

/** How this machine reaches the npm registry (a proxy, its CA), which a RUN needs as well. */
const NETWORK_VARIABLES = [
  'NODE_EXTRA_CA_CERTS',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
];

function networkEnv(): Record<string, string> {
  return Object.fromEntries(
    NETWORK_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
}

function stageEnv(stage: Stage, extra: Record<string, string> = {}): Record<string, string> {
  const home = join(stage.root, 'root');
  mkdirSync(home, { recursive: true });
  const network = networkEnv();
  const path = `${stage.nodeBin}:${process.env.PATH ?? ''}`;
  return { ...network, PATH: path, HOME: home, ...stage.env, ...extra };
}

/** The `key=value` pairs of ENV, LABEL and ARG (a value quoted or a single word). */
function pairs(args: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, key = '', value = ''] of args.matchAll(/([\w.-]+)=("[^"]*"|\S+)/g)) {
    found[key] = value.replace(/^"|"$/g, '');
  }
  return found;
}

/** `${NAME}` and `$NAME` replaced by the values of the ARGs before the first FROM. */
function substitute(text: string, args: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced?: string, bare?: string) => {
    const name = braced ?? bare ?? '';
    if (!(name in args)) throw new Error(`${text}: ${name} is no ARG with a default`);
    return args[name]!;
  });
}

/** The folder of a Node binary of `major`: this process's own, or scripts/node-binary.sh's. */
async function nodeBinOf(major: string): Promise<string> {
  if (major === process.versions.node.split('.')[0]) return dirname(process.execPath);
  const script = join(context, 'scripts/node-binary.sh');
  // Its npm install needs the way to the registry too: without the proxy's CA, some of its
  // requests fail (SELF_SIGNED_CERT_IN_CHAIN).
  const env = { ...networkEnv(), PATH: process.env.PATH ?? '' };
  return (await run(['bash', script, major], context, env)).trim();
}

/** HEALTHCHECK's CMD (its options are Docker's alone); NONE leaves none. */
function healthcheckOf(args: string): string[] | null {
  const cmd = /(?:^|\s)CMD\s+(.*)$/.exec(args)?.[1];
  if (cmd === undefined) {
    if (args.trim() === 'NONE') return null;
    throw new Error(`HEALTHCHECK ${args}: not replayed`);
  }
  return commandOf(cmd);
}

/** What every image of weblate-mirror says of itself, as the OCI annotations name it. */
function checkLabels(image: Stage): void {
  const manifest = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8')) as {
    version: string;
    license: string;
  };
  const expected: Record<string, string | RegExp> = {
    'org.opencontainers.image.title': 'weblate-mirror',
    'org.opencontainers.image.description': /\S/,
    'org.opencontainers.image.version': manifest.version,
    'org.opencontainers.image.licenses': manifest.license,
    'org.opencontainers.image.source': /^https:\/\//,
  };
  for (const [key, value] of Object.entries(expected)) {
    const label = image.labels[key];
    if (label === undefined || !(typeof value === 'string' ? label === value : value.test(label)))
      throw new Error(`LABEL ${key}=${String(label)}: expected ${String(value)}`);
  }
}

async function newStage(args: string, stages: Stage[]): Promise<Stage> {
  const [image = '', as, alias] = args.split(/\s+/);
  const name = as?.toUpperCase() === 'AS' ? alias : undefined;
  const root = join(work, `stage-${stages.length}`);
  const base = stages.find((s) => s.name === image);
  if (base) {
    cpSync(base.root, root, { recursive: true });
    const cwd = join(root, relative(base.root, base.cwd));
    return { ...base, name, root, cwd, env: { ...base.env } };
  }
  const major = /^node:(\d+)\b/.exec(image)?.[1];
  if (major === undefined) throw new Error(`FROM ${image}: not replayed (only node:<major>)`);
  const nodeBin = await nodeBinOf(major);
  const version = await run([join(nodeBin, 'node'), '--version'], context, {});
  say(`  Node ${version.trim()} from ${nodeBin}`);
  mkdirSync(root);
  return {
    name,
    root,
    cwd: root,
    env: {},
    nodeBin,
    entrypoint: [],
    cmd: [],
    labels: {},
    healthcheck: null,
  };
}

/** Builds every stage; returns the last. */
async function replay(): Promise<Stage> {
  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  let stage: Stage | undefined;
  for (const { keyword, args } of readInstructions(join(context, 'Dockerfile'))) {
    say(`${keyword} ${args}`);
    if (keyword === 'ARG' && !stage) {
      Object.assign(globalArgs, pairs(args));
      continue;
    }
    if (keyword === 'FROM') {
      stage = await newStage(substitute(args, globalArgs), stages);
      stages.push(stage);
      continue;
    }
    if (!stage) throw new Error(`${keyword} before FROM`);
    if (keyword === 'WORKDIR') {
      stage.cwd = inStage(stage, args);
      mkdirSync(stage.cwd, { recursive: true });
    } else if (keyword === 'COPY') copy(stage, args, stages);
    else if (keyword === 'RUN') await run(commandOf(args), stage.cwd, stageEnv(stage));
    else if (keyword === 'ENV') Object.assign(stage.env, pairs(args));
    else if (keyword === 'LABEL') Object.assign(stage.labels, pairs(args));
    else if (keyword === 'HEALTHCHECK') stage.healthcheck = healthcheckOf(args);
    else if (keyword === 'ENTRYPOINT') stage.entrypoint = commandOf(args);
    else if (keyword === 'CMD') stage.cmd = commandOf(args);
    else if (keyword === 'USER') say('  not replayed: everything runs as the current user');
    else throw new Error(`${keyword}: not replayed (scripts/replay-dockerfile.ts)`);
  }
  if (!stage) throw new Error('no FROM in the Dockerfile');
  return stage;
}

/** Starts the image's `simulate` and returns the base URL it prints first. */
async function startSimulator(image: Stage): Promise<string> {
  const command = [...image.entrypoint, 'simulate', '--port', '0', ...SIMULATOR_SIZE.split(' ')];
  const { child, exited } = start(command, image.cwd, stageEnv(image), CHECK_TIMEOUT_MS);
  let stdout = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!.trim());
    });
    exited.then((code) => reject(new Error(`simulate exited with ${String(code)}`)), reject);
  });
}

/** What a Docker image must not hold: sources for the bin to check, development packages. */
function checkShipped(image: Stage): void {
  if (existsSync(join(image.cwd, 'src'))) throw new Error('the image ships src/');
  const manifest = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const shipped = ['tsx', ...Object.keys(manifest.devDependencies)].filter((name) =>
    existsSync(join(image.cwd, 'node_modules', name)),
  );
  if (shipped.length > 0)
    throw new Error(`the image ships development packages: ${shipped.join(', ')}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const image = await replay();
  say(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  checkShipped(image);
  checkLabels(image);
  if (image.healthcheck === null) throw new Error('the image has no HEALTHCHECK');
  const url = await startSimulator(image);
  // The embedded database goes where the image keeps it by default, ./.weblate-mirror.
  const env = stageEnv(image, { WEBLATE_URL: url });
  say(`${[...image.entrypoint, ...image.cmd].join(' ')} against ${url}`);
  await run([...image.entrypoint, ...image.cmd], image.cwd, env);
  const sql = 'select count(*) as units from weblate.units';
  const rows = await run([...image.entrypoint, 'query', '--json', sql], image.cwd, env);
  const units = (JSON.parse(rows.trim().split('\n')[0] ?? '{}') as { units?: number }).units ?? 0;
  if (!(Number(units) > 0)) throw new Error(`no units mirrored: ${rows}`);
  // Here process 1 is no worker, as in a container of the default `sync`: the check passes.
  // test/deploy/image.test.ts runs it beside a worker that is process 1.
  say(`HEALTHCHECK ${image.healthcheck.join(' ')}`);
  await run(image.healthcheck, image.cwd, env);
  say(`ok: ${String(units)} units mirrored; ${Math.round((Date.now() - started) / 1000)} s in all`);
}

await main().catch((err: unknown) => {
  process.stderr.write(`replay failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
// The simulator still runs; the exit handler ends it and removes the stages.
process.exit();
