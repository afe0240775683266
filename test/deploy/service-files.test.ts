import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { CronJob, type ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import cron from 'node-cron';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

import { CONFIG_VARIABLE_NAMES, type ConfigVariable, loadConfig } from '../../src/config.ts';

/**
 * The service definitions README points to (deploy/systemd/, deploy/kubernetes/): each checked
 * by its platform's own validator, then for what weblate-mirror needs of it. Each check is shown
 * to fail on a broken copy.
 */
const ROOT = join(import.meta.dirname, '../..');
const UNIT = join(ROOT, 'deploy/systemd/weblate-mirror.service');
const MANIFESTS = join(ROOT, 'deploy/kubernetes');
const DEFAULT_SHUTDOWN_MS = loadConfig({ env: {}, envFile: false }).shutdownTimeoutMs;

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function isSetting(name: string): name is ConfigVariable {
  return (CONFIG_VARIABLE_NAMES as string[]).includes(name);
}

describe('the systemd unit', () => {
  const text = readFileSync(UNIT, 'utf8');

  /** What `systemd-analyze verify` says of `unit`, with node where this machine has it. */
  async function verify(unit: string): Promise<string> {
    const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync);
    if (analyze === undefined)
      throw new Error(
        "systemd-analyze is not installed: install Debian's systemd package (bash .ci/run does)",
      );
    const folder = mkdtempSync(join(tmpdir(), 'weblate-mirror-unit-'));
    folders.push(folder);
    const path = join(folder, 'weblate-mirror.service');
    writeFileSync(path, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
    try {
      const { stdout, stderr } = await promisify(execFile)(analyze, ['verify', path]);
      return (stdout + stderr).trim();
    } catch (err) {
      const failed = err as { code: number; stdout: string; stderr: string };
      return `exit ${failed.code}: ${failed.stdout}${failed.stderr}`.trim();
    }
  }

  /** What weblate-mirror needs of the unit and does not find; empty when all holds. */
  function problemsOf(unit: string): string[] {
    const values = new Map<string, string>();
    for (const [, key = '', value = ''] of unit.matchAll(/^(\w+)=(.*)$/gm)) values.set(key, value);
    const stopSeconds = Number(/^(\d+)s?$/.exec(values.get('TimeoutStopSec') ?? '')?.[1] ?? NaN);
    const problems: string[] = [];
    if (values.get('Type') !== 'simple') problems.push('Type is not simple');
    if (!/^\/\S+\/node .*bin\/weblate-mirror\.js worker$/.test(values.get('ExecStart') ?? ''))
      problems.push('ExecStart does not run node on the bin, with no shell or npm between');
    if (!['mixed', 'control-group'].includes(values.get('KillMode') ?? ''))
      problems.push('KillMode leaves processes of the unit behind');
    if (!(stopSeconds * 1000 > DEFAULT_SHUTDOWN_MS))
      problems.push('TimeoutStopSec is not above WORKER_SHUTDOWN_TIMEOUT_SECONDS');
    if (values.get('Restart') !== 'on-failure') problems.push('Restart is not on-failure');
    if (!values.has('EnvironmentFile')) problems.push('no EnvironmentFile');
    return problems;
  }

  it('passes systemd-analyze verify', async () => {
    expect(await verify(text)).toBe('');
  });

  it('fails systemd-analyze verify when broken', async () => {
    expect(await verify(text.replace('KillMode=mixed', 'KillMode=mixd'))).toContain('mixd');
    expect(await verify(text.replace('ExecStart=', 'ExecStrat='))).toContain('ExecStrat');
  });

  it('runs the worker as systemd can stop it, restarting it on failure', () => {
    expect(problemsOf(text)).toEqual([]);
  });

  it.each([
    ['started through npm', 'ExecStart=/usr/bin/npm start'],
    ['a kill mode that signals only the main process', 'KillMode=process'],
    ['a stop timeout under the shutdown deadline', 'TimeoutStopSec=5'],
    ['no restart', 'Restart=no'],
  ])('finds a unit %s wanting', (_, line) => {
    const key = line.slice(0, line.indexOf('='));
    const broken = text.replace(new RegExp(`^${key}=.*$`, 'm'), line);
    expect(broken).not.toBe(text);
    expect(problemsOf(broken)).not.toEqual([]);
  });
});

type Manifest = ISecret | IDeployment | ICronJob;

function readManifests(): Manifest[] {
  return readdirSync(MANIFESTS)
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) =>
      parseAllDocuments(readFileSync(join(MANIFESTS, name), 'utf8')).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${name}: ${doc.errors[0]!.message}`);
        return doc.toJS() as Manifest;
      }),
    );
}

/** The Kubernetes API's schema of each object (kubernetes-models), as the API server applies it. */
function schemaProblems(manifests: Manifest[]): string[] {
  return manifests.flatMap((manifest) => {
    const models = { Secret, Deployment, CronJob } as const;
    const Model = models[manifest.kind];
    if (Model === undefined) return [`${String(manifest.kind)}: a kind not checked here`];
    try {
      new Model(manifest as never).validate();
      return [];
    } catch (err) {
      return [`${manifest.kind} ${manifest.metadata?.name}: ${(err as Error).message}`];
    }
  });
}

/** What weblate-mirror needs of the objects and does not find; empty when all holds. */
function usageProblems(manifests: Manifest[]): string[] {
  const of = <K extends Manifest['kind']>(kind: K) =>
    manifests.filter((m): m is Extract<Manifest, { kind: K }> => m.kind === kind);
  const [secret] = of('Secret');
  const [deployment] = of('Deployment');
  const [cronJob] = of('CronJob');
  if (!secret || !deployment || !cronJob) return ['a Secret, a Deployment and a CronJob are due'];
  const problems: string[] = [];
  const secretValues = secret.stringData ?? {};
  for (const name of ['WEBLATE_TOKEN', 'DATABASE_URL'])
    if (!(name in secretValues)) problems.push(`the Secret holds no ${name}`);
  const configOf = (container: IContainer) => {
    const env: Record<string, string> = {};
    for (const source of container.envFrom ?? []) {
      if (source.secretRef?.name !== secret.metadata?.name) problems.push('envFrom another Secret');
      else Object.assign(env, secretValues);
    }
    for (const { name, value } of container.env ?? []) env[name] = value ?? '';
    for (const name of Object.keys(env))
      if (!isSetting(name)) problems.push(`${name} is no setting of weblate-mirror`);
    try {
      return loadConfig({ env, envFile: false, required: ['WEBLATE_URL', 'DATABASE_URL'] });
    } catch (err) {
      problems.push((err as Error).message);
      return null;
    }
  };

  const pod = deployment.spec?.template.spec;
  const worker = pod?.containers[0];
  const config = worker ? configOf(worker) : null;
  if (JSON.stringify(worker?.args) !== '["worker"]') problems.push('the Deployment runs no worker');
  if (config !== null) {
    if (config.httpHost !== '0.0.0.0') problems.push('/healthz is not served beyond the pod');
    const port = worker?.ports?.find((p) => p.containerPort === config.httpPort);
    for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
      const probe = worker?.[kind]?.httpGet;
      const target = probe?.port === port?.name ? port?.containerPort : probe?.port;
      if (probe?.path !== '/healthz' || target === undefined || target !== config.httpPort)
        problems.push(`the ${kind} asks no /healthz on WORKER_HTTP_PORT`);
    }
    if (!((pod?.terminationGracePeriodSeconds ?? 30) * 1000 > config.shutdownTimeoutMs))
      problems.push('terminationGracePeriodSeconds is not above WORKER_SHUTDOWN_TIMEOUT_SECONDS');
  }

  const job = cronJob.spec?.jobTemplate.spec?.template.spec;
  const sync = job?.containers[0];
  if (sync) configOf(sync);
  if (JSON.stringify(sync?.args) !== '["sync"]') problems.push('the CronJob runs no sync');
  if (!cron.validate(cronJob.spec?.schedule ?? '')) problems.push('the schedule is no cron line');
  if (cronJob.spec?.concurrencyPolicy !== 'Forbid') problems.push('syncs of the CronJob overlap');
  if (sync?.image !== worker?.image) problems.push('the CronJob and the worker differ in image');
  return problems;
}

describe('the Kubernetes manifests', () => {
  const manifests = readManifests();

  /** A copy of the manifests with one object changed by `change`. */
  function broken(kind: Manifest['kind'], change: (manifest: never) => void): Manifest[] {
    const copy = structuredClone(manifests);
    const target = copy.find((m) => m.kind === kind);
    if (target === undefined) throw new Error(`no ${kind}`);
    change(target as never);
    return copy;
  }

  it('are valid objects of the Kubernetes API', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(['CronJob', 'Deployment', 'Secret']);
    expect(schemaProblems(manifests)).toEqual([]);
  });

  it.each([
    [
      'a port given as words',
      'Deployment',
      (d: IDeployment) => {
        d.spec!.template.spec!.containers[0]!.ports![0]!.containerPort = 'http' as never;
      },
    ],
    [
      'no selector',
      'Deployment',
      (d: IDeployment) => delete (d.spec as Partial<IDeployment['spec']>)!.selector,
    ],
    [
      'no schedule',
      'CronJob',
      (c: ICronJob) => delete (c.spec as Partial<ICronJob['spec']>).schedule,
    ],
    [
      'a secret that is not text',
      'Secret',
      (s: ISecret) => (s.stringData!.WEBLATE_TOKEN = 42 as never),
    ],
  ] as const)('find an object with %s invalid', (_, kind, change) => {
    expect(schemaProblems(broken(kind, change as (m: never) => void))).not.toEqual([]);
  });

  it('run the worker with probes on /healthz, and sync from a CronJob, with the Secret', () => {
    expect(usageProblems(manifests)).toEqual([]);
  });

  it.each([
    [
      'a misspelt probe',
      'Deployment',
      (d: IDeployment) => {
        const container = d.spec!.template.spec!.containers[0]! as unknown as Record<
          string,
          unknown
        >;
        container.livnessProbe = container.livenessProbe;
        delete container.livenessProbe;
      },
    ],
    [
      'a misspelt setting',
      'Deployment',
      (d: IDeployment) => {
        d.spec!.template.spec!.containers[0]!.env![0]!.name = 'WEBLATE_ULR';
      },
    ],
    [
      'a grace period under the shutdown deadline',
      'Deployment',
      (d: IDeployment) => {
        d.spec!.template.spec!.terminationGracePeriodSeconds = 5;
      },
    ],
    ['no token in the Secret', 'Secret', (s: ISecret) => delete s.stringData!.WEBLATE_TOKEN],
    ['overlapping syncs', 'CronJob', (c: ICronJob) => (c.spec.concurrencyPolicy = 'Allow')],
  ] as const)('find manifests with %s wanting', (_, kind, change) => {
    expect(usageProblems(broken(kind, change as (m: never) => void))).not.toEqual([]);
  });
});
