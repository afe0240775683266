import { describe, expect, it } from 'vitest';

import { parseInstanceFlags, parseServerFlags } from '../../src/cli/commands/simulate.ts';
import { UsageError } from '../../src/errors.ts';
import { churnTicker } from '../../src/simulator/churn.ts';
import { scaledCosts, WEBLATE_5_14_COSTS } from '../../src/simulator/cost.ts';
import { generateInstance } from '../../src/simulator/generate.ts';
import { startSimulator } from '../../src/simulator/index.ts';
import { createMutator } from '../../src/simulator/mutations.ts';
import { type RunningCli, startCli } from '../helpers/cli.ts';
import { TINY_INSTANCE } from '../helpers/simulator-mirror.ts';

const SMALL = ['--projects', '1', '--components', '1', '--languages', '2', '--units', '60'];

/** Starts `simulate` with `args` and resolves with its base URL once it prints it. */
async function simulate(args: string[]): Promise<{ cli: RunningCli; url: string }> {
  const cli = startCli(['simulate', ...SMALL, ...args], {}, 60_000);
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    cli.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void cli.done.then((result) =>
      reject(new Error(`simulate exited with ${String(result.code)}: ${result.stderr}`)),
    );
  });
  return { cli, url };
}

async function stop(cli: RunningCli) {
  cli.child.kill('SIGINT');
  return cli.done;
}

describe('simulate flags', () => {
  it('reads faults, a rate budget and latency', () => {
    expect(
      parseServerFlags({
        faults: '500,429:0.25',
        'retry-after': '0.5',
        'rate-limit': '5000/3600',
        latency: '20',
      }),
    ).toEqual({
      faults: { rate: 0.25, kinds: ['500', '429'], retryAfterSeconds: 0.5 },
      rateLimit: { limit: 5000, windowSeconds: 3600, headers: true },
      latencyMs: 20,
    });
    expect(parseServerFlags({ 'rate-limit': '10/1', 'rate-limit-silent': true })).toEqual({
      rateLimit: { limit: 10, windowSeconds: 1, headers: false },
    });
    expect(parseServerFlags({})).toEqual({});
  });

  it.each([
    ['2026-12-06T10:00:00Z', '2026-12-06T09:00:00.000Z'],
    ['2026-12-06T00:20:00Z', '2026-12-06T00:00:00.000Z'],
    ['2026-12-06T01:00:00Z', '2026-12-06T00:00:00.000Z'],
  ])("serves the demo's instance: at %s, a history ending at %s", (now, end) => {
    const instance = parseInstanceFlags({ seed: '4', units: '60' }, Date.parse(now));
    expect(instance).toEqual({
      seed: 4,
      units: 60,
      historyEndsAt: Date.parse(end),
      categoriesAndLabels: true,
    });
  });

  it("reads the cost model's scale", () => {
    expect(parseServerFlags({ 'cost-model': '1' })).toEqual({ costModel: WEBLATE_5_14_COSTS });
    expect(parseServerFlags({ 'cost-model': '0.5' })).toEqual({
      costModel: scaledCosts(WEBLATE_5_14_COSTS, 0.5),
    });
  });

  it.each([
    [{ faults: '1.5' }, /--faults: .*give a share such as 0.1/],
    [{ faults: 'teapot:0.1' }, /--faults: .*kinds: 500, 502/],
    [{ 'rate-limit': '5000' }, /--rate-limit must be <requests>\/<seconds>/],
    [{ 'rate-limit': '0/60' }, /--rate-limit must be/],
    [{ 'rate-limit-silent': true }, /goes with --rate-limit/],
    [{ 'retry-after': '1' }, /goes with --faults/],
    [{ latency: 'soon' }, /--latency must be a non-negative number/],
    [{ 'cost-model': '0' }, /--cost-model must be a positive number/],
    [{ 'cost-model': 'slow' }, /--cost-model must be a positive number/],
  ])('refuses %o with a clear message', (values, message) => {
    expect(() => parseServerFlags(values)).toThrow(UsageError);
    expect(() => parseServerFlags(values)).toThrow(message);
  });

  it('churn edits translated strings and adds one per tick, deterministically', () => {
    const size = { projects: 1, components: 2, languages: 2, units: 200, changes: 50, users: 1 };
    const run = () => {
      const instance = generateInstance({ seed: 4, ...size });
      const mutate = createMutator(instance, () => Date.UTC(2026, 0, 1));
      const units = instance.units.length;
      const changes = instance.changes.length;
      const tick = churnTicker(instance, mutate, { edits: 5, seed: 9 });
      const ticks = [tick(), tick()];
      return { instance, ticks, units, changes };
    };
    const a = run();
    expect(a.ticks).toEqual([
      { edited: 5, added: 1 },
      { edited: 5, added: 1 },
    ]);
    // One new string in each translation of the component, per tick.
    expect(a.instance.units.length).toBeGreaterThan(a.units);
    expect(a.instance.changes.length).toBeGreaterThanOrEqual(a.changes + 10);
    const b = run();
    expect(b.instance.changes.map((c) => c.id)).toEqual(a.instance.changes.map((c) => c.id));
    expect(b.instance.units.map((u) => [u.id, u.target])).toEqual(
      a.instance.units.map((u) => [u.id, u.target]),
    );
  });

  it('serves a rate budget with its headers and churns while running', async () => {
    const { cli, url } = await simulate([
      '--rate-limit',
      '2/600',
      '--churn',
      '3',
      '--churn-seconds',
      '0.1',
    ]);
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await fetch(`${url}api/projects/`));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('2');
      expect(answers[1]!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      const result = await waitForStderr(cli, /churn: 3 strings edited, 1 added/).then(() =>
        stop(cli),
      );
      expect(result.code).toBe(0);
    }
  });

  it('answers as a 5.15+ token of one user with --token-user', async () => {
    expect(parseServerFlags({ 'token-user': 'alice' })).toEqual({
      compat: { tokenUser: 'alice' },
    });
    expect(() => parseServerFlags({ 'token-user': ' ' })).toThrow('--token-user needs a username');
    const { cli, url } = await simulate(['--users', '2']);
    const { cli: restricted, url: restrictedUrl } = await simulate([
      '--users',
      '2',
      '--token-user',
      'nobody-in-particular',
    ]);
    try {
      // The simulator's first generated user.
      const name = 'alice';
      expect((await fetch(`${url}api/users/${name}/notifications/`)).status).toBe(200);
      expect((await fetch(`${restrictedUrl}api/users/${name}/notifications/`)).status).toBe(403);
    } finally {
      expect((await stop(cli)).code).toBe(0);
      expect((await stop(restricted)).code).toBe(0);
    }
  });

  it('refuses any other token with --token, as Weblate does', async () => {
    expect(() => parseServerFlags({ token: 'two words' })).toThrow(UsageError);
    const flags = parseServerFlags({ token: 'wlu_right' });
    expect(flags).toEqual({ token: 'wlu_right' });
    // What the command starts: the size flags and these.
    const sim = await startSimulator({
      ...TINY_INSTANCE,
      ...flags,
    });
    try {
      const get = (token?: string) =>
        fetch(`${sim.url}api/projects/`, {
          headers: token === undefined ? {} : { authorization: `Token ${token}` },
        });
      const wrong = await get('wlu_wrong');
      expect(wrong.status).toBe(401);
      expect(JSON.stringify(await wrong.json())).toContain('Invalid token.');
      expect([(await get('wlu_right')).status, (await get()).status]).toEqual([200, 200]);
    } finally {
      await sim.close();
    }
  });

  it('fails requests as asked', async () => {
    const { cli, url } = await simulate(['--faults', 'html:1']);
    try {
      const answer = await fetch(`${url}api/projects/`);
      expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    } finally {
      expect((await stop(cli)).code).toBe(0);
    }
  });

  it('exits 2 on a bad flag', async () => {
    const result = await startCli(['simulate', '--rate-limit', 'lots'], {}, 30_000).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rate-limit must be <requests>/<seconds>');
  });
});

/** Resolves once the child's stderr matches (bounded by the child's own timeout). */
function waitForStderr(cli: RunningCli, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    cli.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (pattern.test(stderr)) resolve();
    });
    void cli.done.then(() => reject(new Error(`exited before ${String(pattern)}: ${stderr}`)));
  });
}
