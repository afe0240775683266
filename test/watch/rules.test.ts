import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../src/errors.ts';
import { defaultRules, parseWatchConfig, RULE_DEFAULTS } from '../../src/watch/rules.ts';

const SECRET = Buffer.from('a webhook secret of ours').toString('base64');

function problemsOf(text: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseWatchConfig(text, 'rules.yml', env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('the file was accepted');
}

describe('the watch rules file', () => {
  it('takes every rule type, channel type and digest, defaults filled in', () => {
    const config = parseWatchConfig(
      `version: 1
channels:
  - name: hooks
    type: webhook
    url: https://ci.example.org/hooks/l10n
    secret: \${HOOK_SECRET}
  - { name: team, type: slack, url: "\${SLACK_URL}" }
  - { name: mm, type: mattermost, url: https://chat.example.org/hooks/x }
  - name: managers
    type: email
    smtp: smtps://mirror:\${SMTP_PASSWORD}@smtp.example.org:465
    from: weblate-mirror <l10n@example.org>
    to: [lead@example.org, pm@example.org]
rules:
  - type: stalled
    days: 21
    scope: { projects: [app], languages: [de, pt_BR] }
    channels: [team]
  - { type: readiness, level: 95, by: words }
  - { type: readiness, name: approved-80, level: 80.5, basis: approved, scope: { labels: [release] } }
  - { type: review-waiting }
  - { type: new-source-words, words: 500, per: day, scope: { components: [app/strings] } }
  - { type: failing-checks, by: 3 }
  - { type: mirror-stale, minutes: 60, failed_runs: 2, channels: [hooks, managers] }
digests:
  - { channel: managers, every: week, scope: { projects: [app], categories: [app/docs] } }
  - { channel: team, every: day }
`,
      'rules.yml',
      {
        HOOK_SECRET: SECRET,
        SLACK_URL: 'https://hooks.slack.com/services/T/B/x',
        SMTP_PASSWORD: 'p@ss',
      },
    );
    expect(config.channels.map((c) => [c.name, c.type])).toEqual([
      ['hooks', 'webhook'],
      ['team', 'slack'],
      ['mm', 'mattermost'],
      ['managers', 'email'],
    ]);
    expect(config.channels[0]).toMatchObject({ secret: SECRET });
    expect(config.rules.map((r) => r.name)).toEqual([
      'stalled',
      'readiness-95',
      'approved-80',
      'review-waiting',
      'new-source-words',
      'failing-checks',
      'mirror-stale',
    ]);
    expect(config.rules[0]).toMatchObject({
      days: 21,
      line: 15,
      channels: ['team'],
      scope: { projects: ['app'], languages: ['de', 'pt_BR'] },
    });
    expect(config.rules[1]).toMatchObject({
      level: 95,
      basis: 'translated',
      by: 'words',
      channels: null,
    });
    expect(config.rules[2]).toMatchObject({
      level: 80.5,
      basis: 'approved',
      by: 'strings',
      scope: { labels: ['release'] },
    });
    expect(config.rules[3]).toMatchObject({ days: RULE_DEFAULTS['review-waiting'].days });
    expect(config.rules[6]).toMatchObject({ minutes: 60, failedRuns: 2 });
    expect(config.digests).toEqual([
      {
        channel: 'managers',
        every: 'week',
        scope: { projects: ['app'], categories: ['app/docs'] },
      },
      { channel: 'team', every: 'day', scope: {} },
    ]);
  });

  it('without rules, or without a file, has one rule of each type over everything', () => {
    const config = parseWatchConfig('channels: []\n', 'rules.yml');
    expect(config.rules).toEqual(defaultRules());
    expect(new Set(config.rules.map((r) => r.type)).size).toBe(6);
    expect(parseWatchConfig('', 'rules.yml').rules).toEqual(defaultRules());
  });

  it('names every bad line at once, and never a secret it read', () => {
    const problems = problemsOf(
      `channels:
  - { name: hooks, type: webhook, url: "ftp://x/\${TOKEN}" }
  - { name: hooks, type: slack, url: https://hooks.slack.com/x, secret: abc }
  - { name: mail, type: email, smtp: "smtp://u:\${SMTP_PASSWORD}@smtp.example.org", from: a@b }
rules:
  - { type: stalled, days: ten }
  - { type: readiness, level: 101, basis: reviewed }
  - { type: stale }
  - { type: mirror-stale, scope: { projects: [a] } }
  - { type: review-waiting, dayz: 3, channels: [nowhere] }
  - { type: failing-checks, scope: { labels: [x] } }
  - { type: stalled }
digests:
  - { channel: nowhere, every: month }
`,
      { TOKEN: 'tok-123-secret', SMTP_PASSWORD: 'hunter2-secret' },
    );
    const joined = problems.join('\n');
    expect(joined).not.toContain('tok-123-secret');
    expect(joined).not.toContain('hunter2-secret');
    const expectLine = (line: number, text: string) =>
      expect(
        problems.some((p) => p.startsWith(`rules.yml line ${line}: `) && p.includes(text)),
        `${line}: ${text}\n${joined}`,
      ).toBe(true);
    expectLine(2, 'must start with https:// or http://');
    expectLine(3, '"hooks" is used twice');
    expectLine(3, 'does not apply to a slack channel');
    expectLine(4, 'to is required');
    expectLine(6, 'days must be a whole number of days from 1 to 3650 (got "ten")');
    expectLine(7, 'level must be a number of percent from 0 to 100 (got 101)');
    expectLine(7, 'basis must be one of translated, approved');
    expectLine(8, 'type must be one of');
    expectLine(9, 'does not apply to a mirror-stale rule');
    expectLine(10, 'dayz is not a known field');
    expectLine(10, 'names the channel "nowhere"');
    expectLine(11, 'applies to readiness rules only');
    expectLine(12, '"stalled" is used twice');
    expectLine(14, 'every must be one of day, week');
    expectLine(14, 'names the channel "nowhere"');
  });

  it('says which environment variable is missing, and what a YAML error is', () => {
    expect(problemsOf('channels:\n  - { name: a, type: slack, url: "${SLACK_URL}" }\n')).toEqual([
      'rules.yml line 2: channels[0].url names the environment variable SLACK_URL, which is not set',
    ]);
    const yaml = problemsOf('rules:\n  - type: stalled\n   days: 3\n');
    expect(yaml).toHaveLength(1);
    expect(yaml[0]).toMatch(/^rules\.yml line 3: /);
    expect(problemsOf('rules: {}\n')).toEqual([
      'rules.yml line 1: rules must be a list (lines starting with "- ")',
    ]);
  });
});
