import { once } from 'node:events';

import { UsageError } from '../../errors.ts';
import { checkWebhookSecret } from '../../lib/webhook-secret.ts';
import { startChurn } from '../../simulator/churn.ts';
import { FAULT_KINDS, parseFaultSpec } from '../../simulator/faults.ts';
import {
  type CompatOptions,
  DEFAULT_SIZE,
  parseRelease,
  RELEASES,
  scaledCosts,
  type SimulatorOptions,
  type SimulatorSize,
  startSimulator,
  WEBLATE_5_14_COSTS,
} from '../../simulator/index.ts';
import { fillAutomatically } from '../../simulator/machine-fills.ts';
import type { Command, OptionSpec, OptionValues } from '../args.ts';
import { print } from '../runtime.ts';

const SIZE_FLAGS: Array<keyof SimulatorSize> = [
  'projects',
  'components',
  'languages',
  'units',
  'changes',
  'users',
];

export const SIZE_OPTIONS: OptionSpec = Object.fromEntries(
  SIZE_FLAGS.map((f) => [f, { type: 'string' as const }]),
);
export const SIZE_HELP = [
  '--seed <n>             seed of the generated data (default 1; same seed, same instance)',
  `--projects <n>         number of projects (default ${DEFAULT_SIZE.projects})`,
  `--components <n>       components over all projects (default ${DEFAULT_SIZE.components})`,
  `--languages <n>        target languages besides the source language (default ${DEFAULT_SIZE.languages})`,
  `--units <n>            strings (units) over all translations (default ${DEFAULT_SIZE.units})`,
  `--changes <n>          change history records (default ${DEFAULT_SIZE.changes})`,
  `--users <n>            users with notification subscriptions (default ${DEFAULT_SIZE.users})`,
];

/** Reads --seed and the size flags; each must be a whole number. */
function parseSizeFlags(values: OptionValues): Partial<SimulatorSize> & { seed?: number } {
  const out: Partial<SimulatorSize> & { seed?: number } = {};
  for (const flag of [...SIZE_FLAGS, 'seed'] as const) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < (flag === 'seed' ? 0 : 1)) {
      throw new UsageError(
        `--${flag} must be a whole number${flag === 'seed' ? '' : ' of at least 1'}, got "${raw}"`,
      );
    }
    out[flag] = value;
  }
  return out;
}

type InstanceOptions = Partial<SimulatorSize> &
  Pick<SimulatorOptions, 'seed' | 'historyEndsAt' | 'categoriesAndLabels'>;

/**
 * The demo's instance, which `simulate` serves too: the size flags, a history that ends today
 * (an hour ago, or at midnight UTC if that is later) for the recent days of the report and the
 * dashboards, and categories and labels for their sections of them.
 */
export function parseInstanceFlags(values: OptionValues, now = Date.now()): InstanceOptions {
  return {
    ...parseSizeFlags(values),
    historyEndsAt: Math.max(now - 3_600_000, now - (now % 86_400_000)),
    categoriesAndLabels: true,
  };
}

/** A positive (or, with `allowZero`, non-negative) number from a flag, or a usage error. */
function numberFlag(
  values: OptionValues,
  flag: string,
  options: { allowZero?: boolean } = {},
): number | undefined {
  const raw = values[flag];
  if (typeof raw !== 'string') return undefined;
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (value === 0 && !options.allowZero)
  )
    throw new UsageError(
      `--${flag} must be a ${options.allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`,
    );
  return value;
}

type ServerFlags = Pick<
  SimulatorOptions,
  'faults' | 'rateLimit' | 'latencyMs' | 'costModel' | 'compat' | 'token'
>;

/**
 * Reads the fault, rate-limit, latency, cost-model, token and token-user flags into
 * simulator options.
 */
export function parseServerFlags(values: OptionValues): ServerFlags {
  const out: ServerFlags = {};
  const retryAfter = numberFlag(values, 'retry-after', { allowZero: true });
  if (typeof values.faults === 'string') {
    try {
      out.faults = parseFaultSpec(values.faults);
    } catch (err) {
      throw new UsageError(
        `--faults: ${(err as Error).message}: give a share such as 0.1, or kinds and a share such as 500,429:0.1 (kinds: ${FAULT_KINDS.join(', ')})`,
      );
    }
    if (retryAfter !== undefined) out.faults.retryAfterSeconds = retryAfter;
  } else if (retryAfter !== undefined) {
    throw new UsageError('--retry-after goes with --faults');
  }
  if (typeof values['rate-limit'] === 'string') {
    const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(values['rate-limit']);
    const limit = match === null ? 0 : Number(match[1]);
    const windowSeconds = match === null ? 0 : Number(match[2]);
    if (limit < 1 || windowSeconds <= 0)
      throw new UsageError(
        `--rate-limit must be <requests>/<seconds>, e.g. 5000/3600, got "${values['rate-limit']}"`,
      );
    out.rateLimit = { limit, windowSeconds, headers: values['rate-limit-silent'] !== true };
  } else if (values['rate-limit-silent'] === true) {
    throw new UsageError('--rate-limit-silent goes with --rate-limit');
  }
  const latency = numberFlag(values, 'latency', { allowZero: true });
  if (latency !== undefined) out.latencyMs = latency;
  const costScale = numberFlag(values, 'cost-model');
  if (costScale !== undefined) out.costModel = scaledCosts(WEBLATE_5_14_COSTS, costScale);
  if (typeof values.token === 'string') {
    if (!/^\S+$/.test(values.token))
      throw new UsageError('--token needs a key without spaces (what WEBLATE_TOKEN will send)');
    out.token = values.token;
  }
  const compat: CompatOptions = {};
  if (typeof values.weblate === 'string') {
    const release = parseRelease(values.weblate);
    if (release === null)
      throw new UsageError(
        `--weblate must be one of ${RELEASES.join(', ')} (or a release of one, e.g. 2026.10.1), got "${values.weblate}"`,
      );
    compat.release = release;
  }
  if (typeof values['token-user'] === 'string') {
    if (values['token-user'].trim() === '') throw new UsageError('--token-user needs a username');
    compat.tokenUser = values['token-user'];
  }
  if (Object.keys(compat).length > 0) out.compat = compat;
  return out;
}

/** Reads --webhook-url and --webhook-secret (both or neither). */
export function parseWebhookFlags(values: OptionValues): Pick<SimulatorOptions, 'webhook'> {
  const url = values['webhook-url'];
  const secret = values['webhook-secret'];
  if (url === undefined && secret === undefined) return {};
  if (typeof url !== 'string' || typeof secret !== 'string')
    throw new UsageError('--webhook-url and --webhook-secret go together');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--webhook-url must be an http(s) URL, got "${url}"`);
  try {
    checkWebhookSecret(secret);
  } catch (err) {
    throw new UsageError(`--webhook-secret: ${(err as Error).message}`);
  }
  return { webhook: { url, secret } };
}

export const simulateCommand: Command = {
  name: 'simulate',
  description: "Serve the demo's simulated, Weblate-compatible instance on 127.0.0.1.",
  summary:
    "Serve the demo's generated, Weblate-compatible instance (its history ending today, with categories and\n" +
    'labels) on 127.0.0.1, for trying the mirror and its dashboards without a Weblate.\n' +
    'Prints its base URL and runs until interrupted (Ctrl-C). It can misbehave on purpose (faults, a rate\n' +
    'budget, latency) and change while it runs (--churn), to watch the mirror cope.',
  usage: 'simulate [options]',
  options: {
    port: { type: 'string' },
    seed: { type: 'string' },
    ...SIZE_OPTIONS,
    faults: { type: 'string' },
    'retry-after': { type: 'string' },
    'rate-limit': { type: 'string' },
    'rate-limit-silent': { type: 'boolean' },
    latency: { type: 'string' },
    'cost-model': { type: 'string' },
    token: { type: 'string' },
    'token-user': { type: 'string' },
    weblate: { type: 'string' },
    churn: { type: 'string' },
    'churn-seconds': { type: 'string' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string' },
  },
  optionHelp: [
    '--port <n>             port on 127.0.0.1 (default: any free port)',
    ...SIZE_HELP,
    `--faults <spec>        fail a share of API requests: 0.1 (every kind) or 500,429:0.1; kinds: ${FAULT_KINDS.join(', ')}`,
    '--retry-after <s>      Retry-After of faulted 429 and 503 answers (default 1)',
    '--rate-limit <n>/<s>   a budget of n requests per s seconds, with X-RateLimit-* headers and 429 beyond it',
    '--rate-limit-silent    enforce the budget without advertising it (429 and Retry-After only)',
    '--latency <ms>         delay before every answer',
    '--cost-model <scale>   take as long as Weblate 5.14 to answer (what it counts, skips and serializes), times scale (1: as measured)',
    '--token <key>          accept only this API token: a request with another answers 401 as Weblate does',
    '                       (a request without one is served as anonymous)',
    `--weblate <release>    answer as this Weblate: ${RELEASES.join(', ')} (default 5.14; see docs/weblate-compatibility.md)`,
    "--token-user <name>    answer as Weblate 5.15+ for this user's token: other users' notification subscriptions are 403",
    '--churn <n>            every --churn-seconds, edit n translated strings and add one string',
    '--churn-seconds <s>    seconds between churn ticks (default 60)',
    "--webhook-url <url>    POST every change to this URL as Weblate's webhook add-on does (Standard Webhooks)",
    '--webhook-secret <s>   the secret those webhooks are signed with (base64, optionally whsec_…; required with --webhook-url)',
  ],
  async run(values) {
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('--port must be a port number');
    const edits = numberFlag(values, 'churn');
    if (edits !== undefined && !Number.isInteger(edits))
      throw new UsageError(`--churn must be a whole number, got "${String(values.churn)}"`);
    const everySeconds = numberFlag(values, 'churn-seconds') ?? 60;
    const simulator = await startSimulator({
      ...parseInstanceFlags(values),
      ...parseServerFlags(values),
      ...parseWebhookFlags(values),
      port,
    });
    fillAutomatically(simulator);
    print(simulator.url);
    // The key is the user's own (--token): it is not printed back.
    const token = typeof values.token === 'string' ? ' WEBLATE_TOKEN=<the --token key>' : '';
    process.stderr.write(
      `Weblate simulator listening. Try:\n  WEBLATE_URL=${simulator.url}${token} npx weblate-mirror sync\nPress Ctrl-C to stop.\n`,
    );
    const churn =
      edits === undefined
        ? null
        : startChurn(simulator.instance, simulator.mutate, { edits, everySeconds }, (tick) =>
            process.stderr.write(
              `churn: ${tick.edited} strings edited, ${tick.added} added (${simulator.instance.units.length} units)\n`,
            ),
          );
    await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
    churn?.stop();
    await simulator.close();
    return 0;
  },
};
