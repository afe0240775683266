import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

/**
 * bin/weblate-mirror.js in the layouts it meets: a checkout (sources beside the build) and
 * what the Docker image and an installed package ship (the bundle, no sources, no tsx). Each
 * layout is a folder outside the checkout, where Node finds no package but those linked in.
 */
const ROOT = join(import.meta.dirname, '../..');
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const FAKE_BUNDLE = `export async function main(args) {
  process.stdout.write('bundle ' + args.join(' ') + '\\n');
  return 0;
}
`;
// Type annotations: this only runs through tsx.
const FAKE_SOURCES = `export async function main(args: string[]): Promise<number> {
  process.stdout.write('sources ' + args.join(' ') + '\\n');
  return 0;
}
`;

interface Layout {
  /** Files to write, relative to the package folder. */
  files: Record<string, string>;
  /** Packages of the checkout to link into node_modules. */
  packages?: string[];
}

function makeLayout({ files, packages = [] }: Layout): string {
  const folder = mkdtempSync(join(tmpdir(), 'weblate-mirror-bin-'));
  folders.push(folder);
  cpSync(join(ROOT, 'bin'), join(folder, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  for (const name of packages) {
    mkdirSync(dirname(join(folder, 'node_modules', name)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(folder, 'node_modules', name));
  }
  return folder;
}

/** Sets a file's modification time to `seconds` since the epoch. */
function setTime(folder: string, path: string, seconds: number): void {
  utimesSync(join(folder, path), seconds, seconds);
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin as a command (its shebang included), with only PATH and HOME set. */
async function runBin(folder: string, args: string[], env: Record<string, string> = {}) {
  const bin = join(folder, 'bin/weblate-mirror.js');
  const options = { env: { PATH: process.env.PATH ?? '', HOME: folder, ...env }, cwd: folder };
  try {
    const { stdout, stderr } = await promisify(execFile)(bin, args, options);
    return { code: 0, stdout, stderr } satisfies Ran;
  } catch (err) {
    const failed = err as Ran;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr } satisfies Ran;
  }
}

describe('bin/weblate-mirror.js', () => {
  it('runs the bundle where no sources ship, without tsx, whatever else lies beside it', async () => {
    const folder = makeLayout({
      files: {
        'dist/src/cli/bundle.js': FAKE_BUNDLE,
        // Newer than the bundle, but without src/cli/main.ts this is no checkout.
        'jobs/sync.ts': FAKE_SOURCES,
      },
    });
    setTime(folder, 'dist/src/cli/bundle.js', 1_000);
    setTime(folder, 'jobs/sync.ts', 2_000);
    expect(await runBin(folder, ['--version'])).toEqual({
      code: 0,
      stdout: 'bundle --version\n',
      stderr: '',
    });
  });

  it('runs the bundle in a checkout while no source is newer', async () => {
    const folder = makeLayout({
      files: { 'dist/src/cli/bundle.js': FAKE_BUNDLE, 'src/cli/main.ts': FAKE_SOURCES },
      packages: ['tsx'],
    });
    setTime(folder, 'src/cli/main.ts', 1_000);
    setTime(folder, 'dist/src/cli/bundle.js', 1_000);
    expect((await runBin(folder, ['status'])).stdout).toBe('bundle status\n');
  });

  it('runs the sources through tsx when one of them is newer than the bundle', async () => {
    const folder = makeLayout({
      files: {
        'dist/src/cli/bundle.js': FAKE_BUNDLE,
        'src/cli/main.ts': FAKE_SOURCES,
        'migrations/0099_new.ts': 'export {};\n',
      },
      packages: ['tsx'],
    });
    setTime(folder, 'src/cli/main.ts', 1_000);
    setTime(folder, 'dist/src/cli/bundle.js', 1_000);
    setTime(folder, 'migrations/0099_new.ts', 1_001);
    expect((await runBin(folder, ['status'])).stdout).toBe('sources status\n');
  });

  it('says how to build when the sources are newer and tsx is not installed', async () => {
    const folder = makeLayout({ files: { 'src/cli/main.ts': FAKE_SOURCES } });
    const ran = await runBin(folder, ['status']);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toContain('run `npm ci`');
  });

  it('runs the built bundle with PGlite as its only package, as the image and the package ship it', async () => {
    const folder = makeLayout({ files: {}, packages: ['@electric-sql/pglite'] });
    mkdirSync(join(folder, 'dist/src/cli'), { recursive: true });
    for (const file of ['dist/src/cli/bundle.js', 'dist/src/cli/demo-server.js']) {
      copyFileSync(join(ROOT, file), join(folder, file));
    }
    cpSync(join(ROOT, 'assets'), join(folder, 'assets'), { recursive: true });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await runBin(folder, ['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });

    // The demo forks its simulated Weblate from dist/src/cli/demo-server.js.
    const data = join(folder, 'data');
    const size = [
      '--projects',
      '1',
      '--components',
      '1',
      '--languages',
      '1',
      '--units',
      '50',
      '--changes',
      '50',
    ];
    const demo = await runBin(folder, ['demo', '--data-dir', data, ...size], { LOG_LEVEL: 'warn' });
    expect(demo).toMatchObject({ code: 0, stderr: '' });
    const sql = 'select count(*)::int as n from weblate.units';
    const query = await runBin(folder, ['query', '--json', '--data-dir', data, sql]);
    expect(query.code).toBe(0);
    expect((JSON.parse(query.stdout) as { n: number }).n).toBeGreaterThan(0);
  });
});
