import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.ts';
import { ConfigError } from '../src/errors.ts';

const noFile = { envFile: false } as const;

describe('loadConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = loadConfig({ env: {}, ...noFile });
    expect(config).toMatchObject({
      weblateUrl: null,
      databaseUrl: null,
      projects: null,
      users: [],
      logLevel: 'info',
      concurrency: 4,
      maxPageSize: 10_000,
      discoveryIntervalSeconds: 3600,
      maxRps: 0,
      maxAttempts: 5,
      timeoutMs: 60_000,
      shutdownTimeoutMs: 10_000,
    });
    expect(config.dataDir).toMatch(/\.weblate-mirror$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('normalises the instance URL to its root with a trailing slash', () => {
    for (const raw of [
      'https://w.example/',
      'https://w.example',
      'https://w.example/api/',
      'https://w.example/api',
    ]) {
      expect(loadConfig({ env: { WEBLATE_URL: raw }, ...noFile }).weblateUrl?.href).toBe(
        'https://w.example/',
      );
    }
    expect(
      loadConfig({ env: { WEBLATE_URL: 'https://w.example/sub/api/?x=1' }, ...noFile }).weblateUrl
        ?.href,
    ).toBe('https://w.example/sub/');
  });

  it('names every bad variable in one error, without echoing the token', () => {
    const env = {
      WEBLATE_URL: 'not a url',
      WEBLATE_TOKEN: 'wlu_secret value',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      WEBLATE_CONCURRENCY: '0',
      WEBLATE_MAX_PAGE_SIZE: '50',
      WEBLATE_DISCOVERY_INTERVAL_SECONDS: 'hourly',
      WEBLATE_PROJECTS: 'ok,bad slug',
    };
    let error: unknown;
    try {
      loadConfig({ env, ...noFile });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const name of [
      'WEBLATE_URL',
      'WEBLATE_TOKEN',
      'DATABASE_URL',
      'LOG_LEVEL',
      'WEBLATE_CONCURRENCY',
      'WEBLATE_MAX_PAGE_SIZE',
      'WEBLATE_DISCOVERY_INTERVAL_SECONDS',
      'WEBLATE_PROJECTS',
    ]) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
    expect((error as Error).message).not.toContain('secret');
  });

  it('shows a malformed URL setting with its password masked', () => {
    let error: unknown;
    try {
      loadConfig({
        env: {
          DATABASE_URL: 'http://admin:s3cret@db.example/x',
          WEBLATE_URL: 'https://wlu_t0ken:s3cret@weblate.example/',
        },
        ...noFile,
      });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).problems).toEqual([
      'WEBLATE_URL="https://***@weblate.example/": must not contain credentials; use WEBLATE_TOKEN',
      'DATABASE_URL="http://admin:***@db.example/x": must be a postgres:// or postgresql:// URL',
    ]);
  });

  it('requires what the command needs', () => {
    expect(() => loadConfig({ env: {}, required: ['WEBLATE_URL'], ...noFile })).toThrow(
      /WEBLATE_URL is required/,
    );
  });

  it('refuses plain http to a remote host unless allowed, but accepts loopback', () => {
    expect(() =>
      loadConfig({ env: { WEBLATE_URL: 'http://weblate.example/' }, ...noFile }),
    ).toThrow(/unencrypted/);
    expect(
      loadConfig({ env: { WEBLATE_URL: 'http://127.0.0.1:8000/' }, ...noFile }).weblateUrl?.href,
    ).toBe('http://127.0.0.1:8000/');
    const allowed = loadConfig({
      env: { WEBLATE_URL: 'http://weblate.example/', WEBLATE_ALLOW_HTTP: '1' },
      ...noFile,
    });
    expect(allowed.weblateUrl?.protocol).toBe('http:');
  });

  it('reads .env, lets the environment win over it and flags win over both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wm-config-'));
    const envFile = join(dir, '.env');
    writeFileSync(
      envFile,
      'WEBLATE_URL=https://from-file.example/\nWEBLATE_USERS=a,b\nLOG_LEVEL=debug\n',
    );
    const config = loadConfig({
      env: { LOG_LEVEL: 'warn' },
      envFile,
      overrides: { WEBLATE_USERS: 'c' },
    });
    expect(config.weblateUrl?.href).toBe('https://from-file.example/');
    expect(config.logLevel).toBe('warn');
    expect(config.users).toEqual(['c']);
  });

  it('treats an empty override as unset, so a flag can switch a file setting off', () => {
    const config = loadConfig({
      env: { DATABASE_URL: 'postgres://x/y' },
      overrides: { DATABASE_URL: '' },
      ...noFile,
    });
    expect(config.databaseUrl).toBeNull();
  });

  it('reads the worker settings: cron expressions or off, time zone, HTTP server and health age', () => {
    const defaults = loadConfig({ env: {}, ...noFile });
    expect(defaults).toMatchObject({
      cron: {},
      timezone: 'UTC',
      httpPort: null,
      httpHost: '127.0.0.1',
      healthMaxAgeSeconds: 3600,
    });
    const config = loadConfig({
      env: {
        WORKER_SYNC_CRON: '*/2 * * * * *',
        WORKER_STATISTICS_CRON: 'OFF',
        WORKER_TIMEZONE: 'Europe/Prague',
        WORKER_HTTP_PORT: '9464',
        WORKER_HTTP_HOST: '0.0.0.0',
        WORKER_HEALTH_MAX_AGE_SECONDS: '900',
      },
      ...noFile,
    });
    expect(config).toMatchObject({
      cron: { WORKER_SYNC_CRON: '*/2 * * * * *', WORKER_STATISTICS_CRON: null },
      timezone: 'Europe/Prague',
      httpPort: 9464,
      httpHost: '0.0.0.0',
      healthMaxAgeSeconds: 900,
    });
    expect('WORKER_RECONCILE_CRON' in config.cron).toBe(false);
  });

  it('names every bad worker setting at once', () => {
    let error: unknown;
    try {
      loadConfig({
        env: {
          WORKER_SYNC_CRON: '61 * * * *',
          WORKER_RECONCILE_CRON: 'nightly',
          WORKER_TIMEZONE: 'Mars/Olympus',
          WORKER_HTTP_PORT: '70000',
          WORKER_HEALTH_MAX_AGE_SECONDS: '0',
        },
        ...noFile,
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(
        /^WORKER_SYNC_CRON="61 \* \* \* \*": not a valid cron expression \(61 is a invalid expression for minute\); use 5 fields/,
      ),
      expect.stringMatching(
        /^WORKER_RECONCILE_CRON="nightly": not a valid cron expression .*or "off" to disable the job$/,
      ),
      expect.stringMatching(/^WORKER_TIMEZONE="Mars\/Olympus": not a time zone/),
      'WORKER_HTTP_PORT="70000": must be a number from 0 to 65535',
      'WORKER_HEALTH_MAX_AGE_SECONDS="0": must be a number from 1 to 31536000',
    ]);
  });
  it('reads the webhook secret, with or without whsec_, and the debounce in milliseconds', () => {
    expect(loadConfig({ env: {}, ...noFile })).toMatchObject({
      webhookSecret: null,
      webhookDebounceMs: 2000,
    });
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(
      loadConfig({
        env: { WEBLATE_WEBHOOK_SECRET: secret, WEBHOOK_DEBOUNCE_SECONDS: '0.25' },
        ...noFile,
      }),
    ).toMatchObject({ webhookSecret: secret, webhookDebounceMs: 250 });
    for (const [raw, ms] of [
      ['0', 0],
      ['300', 300_000],
      ['1.5', 1500],
    ] as const) {
      expect(
        loadConfig({ env: { WEBHOOK_DEBOUNCE_SECONDS: raw }, ...noFile }).webhookDebounceMs,
      ).toBe(ms);
    }
    expect(
      loadConfig({ env: { WEBLATE_WEBHOOK_SECRET: secret.slice(6) }, ...noFile }).webhookSecret,
    ).toBe(secret.slice(6));
  });

  it('refuses a webhook secret that is not base64 without echoing it, and a debounce out of range', () => {
    for (const secret of [
      'whsec_hunter2-is-my-secret',
      'c2VjcmV0IHdpdGhvdXQgcGFkZGluZw',
      'whsec_',
    ]) {
      let error: unknown;
      try {
        loadConfig({
          env: { WEBLATE_WEBHOOK_SECRET: secret, WEBHOOK_DEBOUNCE_SECONDS: '301' },
          ...noFile,
        });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(
          /^WEBLATE_WEBHOOK_SECRET="…": must be the webhook add-on's secret: base64 .*whsec_$/,
        ),
        'WEBHOOK_DEBOUNCE_SECONDS="301": must be a number from 0 to 300',
      ]);
      const bare = secret.slice(secret.startsWith('whsec_') ? 6 : 0);
      if (bare !== '') expect((error as Error).message).not.toContain(bare);
    }
    for (const raw of ['-1', 'soon', '1e3']) {
      expect(() => loadConfig({ env: { WEBHOOK_DEBOUNCE_SECONDS: raw }, ...noFile }), raw).toThrow(
        /^WEBHOOK_DEBOUNCE_SECONDS=.*must be a number from 0 to 300$/,
      );
    }
  });
});
