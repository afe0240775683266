import { readFile } from 'node:fs/promises';

import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLSeq } from 'yaml';

import { ConfigError } from '../errors.ts';
import { checkChannelSpec } from './channels/index.ts';
import { digestScopeProblem } from './digest/scope.ts';
import {
  type ChannelSpec,
  type DigestSpec,
  RULE_TYPES,
  type RuleType,
  type WatchConfig,
  type WatchRule,
  type WatchScope,
} from './model.ts';

// The rules file (WATCH_RULES_FILE): YAML, checked whole before the worker starts, every bad
// line named at once. Values may name environment variables as ${NAME}, so secrets stay out
// of the file; no message ever shows a value read from one (docs/watching.md).

/** Each rule type's thresholds when the file leaves them out, and the rules of no file. */
export const RULE_DEFAULTS = {
  stalled: { days: 30 },
  readiness: { level: 90, basis: 'translated', by: 'strings' },
  'review-waiting': { days: 14 },
  'new-source-words': { words: 1000, per: 'week' },
  'failing-checks': { by: 10, days: 7 },
  'mirror-stale': { minutes: 180, failedRuns: 3 },
} as const;

/** The rules in force without a file: one of each type, over everything, every channel. */
export function defaultRules(): WatchRule[] {
  return RULE_TYPES.map((type) => ({
    ...RULE_DEFAULTS[type],
    type,
    name: defaultName(type, RULE_DEFAULTS[type]),
    scope: {},
    channels: null,
    line: 0,
  })) as WatchRule[];
}

export function defaultWatchConfig(): WatchConfig {
  return { file: null, rules: defaultRules(), channels: [], digests: [] };
}

function defaultName(type: RuleType, fields: Record<string, unknown>): string {
  return type === 'readiness' ? `readiness-${String(fields.level)}` : type;
}

/** Reads and checks the rules file; a ConfigError lists every problem with its line. */
export async function loadWatchConfig(
  file: string | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WatchConfig> {
  if (file === null) return defaultWatchConfig();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError([
      `WATCH_RULES_FILE: cannot read ${file} (${code ?? (err as Error).message}): check the path`,
    ]);
  }
  return parseWatchConfig(text, file, env);
}

/** A problem found at a node: its line, the path of the value, and what is wrong. */
class Problems {
  readonly list: string[] = [];
  constructor(
    readonly file: string,
    readonly lines: LineCounter,
  ) {}
  add(node: Node | null | undefined, path: string, message: string): void {
    const offset = node?.range?.[0];
    const line = offset === undefined ? null : this.lines.linePos(offset).line;
    this.list.push(`${this.file}${line === null ? '' : ` line ${line}`}: ${path} ${message}`);
  }
  lineOf(node: Node | null | undefined): number {
    const offset = node?.range?.[0];
    return offset === undefined ? 0 : this.lines.linePos(offset).line;
  }
}

/** Pure: the rules file's text to its configuration, or a ConfigError naming every bad line. */
export function parseWatchConfig(
  text: string,
  file: string,
  env: NodeJS.ProcessEnv = {},
): WatchConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const problems = new Problems(file, lines);
  for (const error of doc.errors) {
    const line = lines.linePos(error.pos[0]).line;
    problems.list.push(`${file} line ${line}: ${firstLine(error.message)}`);
  }
  if (problems.list.length > 0) throw new ConfigError(problems.list);
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null))
    return { ...defaultWatchConfig(), file };
  if (!isMap(root)) {
    problems.add(root, 'the file', 'must be a mapping with rules, channels and digests');
    throw new ConfigError(problems.list);
  }
  const reader = new Reader(problems, env);
  const top = reader.fields(root, '', ['version', 'rules', 'channels', 'digests']);
  const version = top.get('version');
  if (version !== undefined && reader.scalar(version, 'version') !== 1)
    problems.add(version, 'version', 'must be 1');
  const channels = reader.list(top.get('channels'), 'channels', (node, path) =>
    reader.channel(node, path),
  );
  // Names as written, a bad channel's too: its rules then point at it without a second problem.
  const names = new Set<string>();
  for (const [i, node] of (isSeq(top.get('channels'))
    ? (top.get('channels') as YAMLSeq).items
    : []
  ).entries()) {
    const name = isMap(node) ? node.get('name') : undefined;
    if (typeof name !== 'string') continue;
    if (names.has(name))
      problems.add(node as Node, `channels[${i}].name`, `"${name}" is used twice`);
    names.add(name);
  }
  const rulesNode = top.get('rules');
  const rules =
    rulesNode === undefined
      ? defaultRules()
      : reader.list(rulesNode, 'rules', (node, path) => reader.rule(node, path, names));
  const ruleNames = new Set<string>();
  for (const [i, rule] of rules.entries()) {
    if (rule === null) continue;
    if (ruleNames.has(rule.name))
      problems.add(
        reader.itemNode(rulesNode, i),
        `rules[${i}].name`,
        `"${rule.name}" is used twice: give each rule its own name`,
      );
    ruleNames.add(rule.name);
  }
  const digests = reader.list(top.get('digests'), 'digests', (node, path) =>
    reader.digest(node, path, names),
  );
  const periods = new Set<string>();
  for (const [i, digest] of digests.entries()) {
    if (digest === null) continue;
    const id = `${digest.channel}/${digest.every}`;
    if (periods.has(id))
      problems.add(
        reader.itemNode(top.get('digests'), i),
        `digests[${i}]`,
        `is a second ${digest.every === 'day' ? 'daily' : 'weekly'} digest to channel ${digest.channel}: one per channel and period`,
      );
    periods.add(id);
  }
  if (problems.list.length > 0) throw new ConfigError(problems.list);
  return {
    file,
    rules: rules as WatchRule[],
    channels: channels as ChannelSpec[],
    digests: digests as DigestSpec[],
  };
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}

const SCOPE_KEYS = ['projects', 'components', 'categories', 'labels', 'languages'] as const;
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Walks the document, adding a problem for every bad value and going on. */
class Reader {
  constructor(
    readonly problems: Problems,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The mapping's entries by key; unknown keys are problems (a typo must not pass quietly). */
  fields(node: Node, path: string, known: readonly string[]): Map<string, Node> {
    const out = new Map<string, Node>();
    if (!isMap(node)) {
      this.problems.add(node, path || 'the file', 'must be a mapping (key: value lines)');
      return out;
    }
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      const where = path === '' ? key : `${path}.${key}`;
      if (!known.includes(key)) {
        this.problems.add(
          pair.key as Node,
          where,
          `is not a known field (known: ${known.join(', ')})`,
        );
        continue;
      }
      out.set(key, (pair.value as Node | null) ?? (pair.key as Node));
    }
    return out;
  }

  itemNode(node: Node | undefined, index: number): Node | undefined {
    return node !== undefined && isSeq(node) ? (node.items[index] as Node) : undefined;
  }

  list<T>(
    node: Node | undefined,
    path: string,
    item: (node: Node, path: string) => T | null,
  ): (T | null)[] {
    if (node === undefined) return [];
    if (isScalar(node) && node.value === null) return [];
    if (!isSeq(node)) {
      this.problems.add(node, path, 'must be a list (lines starting with "- ")');
      return [];
    }
    return node.items.map((child, i) => item(child as Node, `${path}[${i}]`));
  }

  scalar(node: Node, path: string): unknown {
    if (!isScalar(node)) {
      this.problems.add(node, path, 'must be a single value');
      return undefined;
    }
    return node.value;
  }

  /** A string, with ${NAME} replaced from the environment; `secret` hides it from messages. */
  string(
    node: Node | undefined,
    path: string,
    options: { required?: boolean } = {},
  ): string | null {
    if (node === undefined) {
      if (options.required === true) this.problems.add(null, path, 'is required');
      return null;
    }
    const value = this.scalar(node, path);
    if (value === undefined) return null;
    if (typeof value !== 'string' && typeof value !== 'number') {
      this.problems.add(node, path, 'must be text');
      return null;
    }
    const missing: string[] = [];
    const expanded = String(value).replace(ENV_REFERENCE, (_, name: string) => {
      const found = this.env[name];
      if (found === undefined || found === '') missing.push(name);
      return found ?? '';
    });
    if (missing.length > 0) {
      this.problems.add(
        node,
        path,
        `names the environment variable ${missing.join(', ')}, which is not set`,
      );
      return null;
    }
    if (expanded.trim() === '') {
      this.problems.add(node, path, 'is empty');
      return null;
    }
    return expanded.trim();
  }

  number(
    node: Node | undefined,
    path: string,
    fallback: number,
    range: { min: number; max: number; whole?: boolean; unit: string },
  ): number {
    if (node === undefined) return fallback;
    const value = this.scalar(node, path);
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      value >= range.min &&
      value <= range.max &&
      (range.whole !== true || Number.isInteger(value));
    if (!ok) {
      const kind = range.whole === true ? 'a whole number' : 'a number';
      this.problems.add(
        node,
        path,
        `must be ${kind} of ${range.unit} from ${range.min} to ${range.max} (got ${JSON.stringify(value)})`,
      );
      return fallback;
    }
    return value;
  }

  choice<T extends string>(
    node: Node | undefined,
    path: string,
    choices: readonly T[],
    fallback: T,
  ): T {
    if (node === undefined) return fallback;
    const value = this.scalar(node, path);
    if (typeof value !== 'string' || !choices.includes(value as T)) {
      this.problems.add(
        node,
        path,
        `must be one of ${choices.join(', ')} (got ${JSON.stringify(value)})`,
      );
      return fallback;
    }
    return value as T;
  }

  strings(node: Node | undefined, path: string): string[] | null {
    if (node === undefined) return null;
    const items = isSeq(node)
      ? node.items.map((n, i) => [n as Node, `${path}[${i}]`] as const)
      : [[node, path] as const];
    const out: string[] = [];
    for (const [child, where] of items) {
      const value = this.string(child, where);
      if (value !== null) out.push(value);
    }
    return out;
  }

  scope(node: Node | undefined, path: string): WatchScope {
    if (node === undefined) return {};
    const fields = this.fields(node, path, SCOPE_KEYS);
    const scope: WatchScope = {};
    for (const key of SCOPE_KEYS) {
      const values = this.strings(fields.get(key), `${path}.${key}`);
      if (values !== null && values.length > 0) scope[key] = values;
    }
    for (const [i, component] of (scope.components ?? []).entries())
      if (!/^[^/]+\/[^/]+$/.test(component))
        this.problems.add(
          fields.get('components'),
          `${path}.components[${i}]`,
          `must be project/component (got "${component}")`,
        );
    return scope;
  }

  channelNames(node: Node | undefined, path: string, known: ReadonlySet<string>): string[] | null {
    const names = this.strings(node, path);
    for (const name of names ?? [])
      if (!known.has(name))
        this.problems.add(
          node,
          path,
          `names the channel "${name}", which the file does not define (channels: ${[...known].join(', ') || 'none'})`,
        );
    return names;
  }

  channel(node: Node, path: string): ChannelSpec | null {
    const f = this.fields(node, path, [
      'name',
      'type',
      'url',
      'secret',
      'smtp',
      'from',
      'to',
      'ca_file',
    ]);
    const name = this.string(f.get('name'), `${path}.name`, { required: true });
    const type = this.choice(
      f.get('type'),
      `${path}.type`,
      ['webhook', 'slack', 'mattermost', 'email'] as const,
      'webhook',
    );
    if (!f.has('type'))
      this.problems.add(node, `${path}.type`, 'is required (webhook, slack, mattermost or email)');
    const allowed: Record<typeof type, string[]> = {
      webhook: ['url', 'secret'],
      slack: ['url'],
      mattermost: ['url'],
      email: ['smtp', 'from', 'to', 'ca_file'],
    };
    for (const key of f.keys())
      if (!['name', 'type', ...allowed[type]].includes(key))
        this.problems.add(f.get(key), `${path}.${key}`, `does not apply to a ${type} channel`);
    if (type === 'email') {
      const smtpUrl = this.url(f.get('smtp'), `${path}.smtp`, ['smtp:', 'smtps:']);
      const from = this.string(f.get('from'), `${path}.from`, { required: true });
      const to = this.strings(f.get('to'), `${path}.to`);
      if (to === null || to.length === 0)
        this.problems.add(node, `${path}.to`, 'is required: one address or a list');
      const caFile = this.string(f.get('ca_file'), `${path}.ca_file`);
      if (name === null || smtpUrl === null || from === null || to === null) return null;
      return this.checked(node, path, { name, type, smtpUrl, from, to, caFile });
    }
    const url = this.url(f.get('url'), `${path}.url`, ['https:', 'http:']);
    if (type === 'webhook') {
      const secret = this.string(f.get('secret'), `${path}.secret`);
      if (name === null || url === null) return null;
      return this.checked(node, path, { name, type, url, secret });
    }
    if (name === null || url === null) return null;
    return this.checked(node, path, { name, type, url });
  }

  /** The channels' own check (what a channel cannot work with), at the channel's line. */
  checked(node: Node, path: string, spec: ChannelSpec): ChannelSpec | null {
    const problems = checkChannelSpec(spec);
    for (const problem of problems) this.problems.add(node, path, problem);
    return problems.length === 0 ? spec : null;
  }

  /** A URL whose text never reaches a message: it may hold a token or a password. */
  url(node: Node | undefined, path: string, protocols: string[]): string | null {
    const value = this.string(node, path, { required: true });
    if (value === null) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      this.problems.add(
        node,
        path,
        `is not a URL (expected ${protocols.map((p) => `${p}//…`).join(' or ')})`,
      );
      return null;
    }
    if (!protocols.includes(url.protocol)) {
      this.problems.add(
        node,
        path,
        `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got ${url.protocol}//…)`,
      );
      return null;
    }
    return value;
  }

  rule(node: Node, path: string, channels: ReadonlySet<string>): WatchRule | null {
    const f = this.fields(node, path, [
      'type',
      'name',
      'scope',
      'channels',
      'days',
      'level',
      'basis',
      'by',
      'words',
      'per',
      'minutes',
      'failed_runs',
    ]);
    if (!f.has('type')) {
      this.problems.add(node, `${path}.type`, `is required (${RULE_TYPES.join(', ')})`);
      return null;
    }
    const typeNode = f.get('type');
    const given = typeNode === undefined ? undefined : this.scalar(typeNode, `${path}.type`);
    if (!RULE_TYPES.includes(given as RuleType)) {
      this.problems.add(
        typeNode,
        `${path}.type`,
        `must be one of ${RULE_TYPES.join(', ')} (got ${JSON.stringify(given)})`,
      );
      return null;
    }
    const type = given as RuleType;
    const d = RULE_DEFAULTS;
    const days = (fallback: number) =>
      this.number(f.get('days'), `${path}.days`, fallback, {
        min: 1,
        max: 3650,
        whole: true,
        unit: 'days',
      });
    const fields: Record<string, unknown> =
      type === 'stalled' || type === 'review-waiting'
        ? { days: days(d[type].days) }
        : type === 'readiness'
          ? {
              level: this.number(f.get('level'), `${path}.level`, d.readiness.level, {
                min: 0,
                max: 100,
                unit: 'percent',
              }),
              basis: this.choice(
                f.get('basis'),
                `${path}.basis`,
                ['translated', 'approved'] as const,
                d.readiness.basis,
              ),
              by: this.choice(
                f.get('by'),
                `${path}.by`,
                ['strings', 'words'] as const,
                d.readiness.by,
              ),
            }
          : type === 'new-source-words'
            ? {
                words: this.number(f.get('words'), `${path}.words`, d[type].words, {
                  min: 0,
                  max: 1e12,
                  whole: true,
                  unit: 'words',
                }),
                per: this.choice(
                  f.get('per'),
                  `${path}.per`,
                  ['day', 'week'] as const,
                  d[type].per,
                ),
              }
            : type === 'failing-checks'
              ? {
                  by: this.number(f.get('by'), `${path}.by`, d[type].by, {
                    min: 1,
                    max: 1e9,
                    whole: true,
                    unit: 'strings',
                  }),
                  days: days(d[type].days),
                }
              : {
                  minutes: this.number(f.get('minutes'), `${path}.minutes`, d[type].minutes, {
                    min: 1,
                    max: 525600,
                    whole: true,
                    unit: 'minutes',
                  }),
                  failedRuns: this.number(
                    f.get('failed_runs'),
                    `${path}.failed_runs`,
                    d[type].failedRuns,
                    { min: 1, max: 1000, whole: true, unit: 'runs' },
                  ),
                };
    const applies = APPLIES[type];
    for (const key of f.keys())
      if (!['type', 'name', 'scope', 'channels', ...applies].includes(key))
        this.problems.add(
          f.get(key),
          `${path}.${key}`,
          `does not apply to a ${type} rule (its fields: ${applies.join(', ')})`,
        );
    const name = this.string(f.get('name'), `${path}.name`) ?? defaultName(type, fields);
    if (!/^[\w.-]+$/.test(name))
      this.problems.add(
        f.get('name'),
        `${path}.name`,
        'may hold only letters, digits, ".", "_" and "-" (it is part of every alert key)',
      );
    const scope = this.scope(f.get('scope'), `${path}.scope`);
    if (scope.labels !== undefined && type !== 'readiness')
      this.problems.add(
        f.get('scope'),
        `${path}.scope.labels`,
        'applies to readiness rules only: the other figures are not kept per label',
      );
    if (type === 'mirror-stale' && Object.keys(scope).length > 0)
      this.problems.add(
        f.get('scope'),
        `${path}.scope`,
        'does not apply to a mirror-stale rule: it watches the whole mirror',
      );
    return {
      ...fields,
      type,
      name,
      scope,
      channels: this.channelNames(f.get('channels'), `${path}.channels`, channels),
      line: this.problems.lineOf(node),
    } as WatchRule;
  }

  digest(node: Node, path: string, channels: ReadonlySet<string>): DigestSpec | null {
    const f = this.fields(node, path, ['channel', 'every', 'scope']);
    const channel = this.string(f.get('channel'), `${path}.channel`, { required: true });
    if (channel !== null && !channels.has(channel))
      this.problems.add(
        f.get('channel'),
        `${path}.channel`,
        `names the channel "${channel}", which the file does not define`,
      );
    const every = this.choice(f.get('every'), `${path}.every`, ['day', 'week'] as const, 'week');
    const scope = this.scope(f.get('scope'), `${path}.scope`);
    // A digest is the report's sections over its window: the report's scope, no more.
    const problem = digestScopeProblem(scope);
    if (problem !== null) this.problems.add(f.get('scope'), `${path}.scope`, problem);
    return channel === null ? null : { channel, every, scope };
  }
}

const APPLIES: Record<RuleType, string[]> = {
  stalled: ['days'],
  readiness: ['level', 'basis', 'by'],
  'review-waiting': ['days'],
  'new-source-words': ['words', 'per'],
  'failing-checks': ['by', 'days'],
  'mirror-stale': ['minutes', 'failed_runs'],
};
