import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import type { RunningSimulator } from '../src/simulator/index.ts';

const BIN = fileURLToPath(new URL('../bin/weblate-mirror.js', import.meta.url));

/**
 * The worker fed by webhooks under steady upstream churn: `editsPerMinute` single-string
 * edits, evenly spaced, for `minutes`, each sent by the simulator as Weblate's add-on sends
 * it. The worker runs as `weblate-mirror worker` in a child process with its default debounce
 * (its scheduled sync far away, so every sync is one the webhooks started). Each edit's lag
 * runs from its change's timestamp to when its row is first seen in weblate.changes (polled
 * every 50 ms).
 */
export interface WebhookLoad {
  editsPerMinute: number;
  minutes: number;
  /**
   * `sessions`: translators at work, one translation at a time, moving to a translation of
   * another component every minute (how edits usually come); `scattered`: every edit in a
   * translation picked at random over the instance (the worst case: each batch touches
   * several components).
   */
  pattern: 'sessions' | 'scattered';
}

export interface WebhookResult extends WebhookLoad {
  edits: number;
  /** Lag from edit to committed row, ms. */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  batches: number;
  /** Requests per coalesced batch besides the units read: the largest and the mean. */
  maxOtherRequests: number;
  meanOtherRequests: number;
  meanUnitRequests: number;
  deliveries: { delivered: number; failed: number; dropped: number };
  /** The endpoint's answer to each webhook, as the simulator timed it, ms. */
  answerP95Ms: number;
  answerMaxMs: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The unit the `n`th edit changes, as the load's pattern says. */
function editPicker(sim: RunningSimulator, load: WebhookLoad): (n: number) => number {
  const { index } = sim.instance;
  const translations = sim.instance.translations.filter(
    (t) => !t.isSource && (index.unitsByTranslation.get(t.id)?.length ?? 0) > 0,
  );
  if (load.pattern === 'scattered') {
    const units = translations.flatMap((t) => index.unitsByTranslation.get(t.id)!);
    return (n) => units[(n * 7919) % units.length]!.id;
  }
  // One translation per component, taken in turn: a session never shares its component.
  const byComponent = new Map<number, (typeof translations)[number]>();
  for (const t of translations)
    if (!byComponent.has(t.componentId)) byComponent.set(t.componentId, t);
  const sessions = [...byComponent.values()];
  return (n) => {
    const session = sessions[Math.floor(n / load.editsPerMinute) % sessions.length]!;
    const units = index.unitsByTranslation.get(session.id)!;
    return units[n % units.length]!.id;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export async function benchWebhooks(
  sim: RunningSimulator,
  databaseUrl: string,
  load: WebhookLoad,
): Promise<WebhookResult> {
  const secret = randomBytes(32).toString('base64');
  const port = await freePort();
  const child = spawn(BIN, ['worker'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      WEBLATE_URL: sim.url,
      LOG_LEVEL: 'warn',
      WORKER_HTTP_PORT: String(port),
      WEBLATE_WEBHOOK_SECRET: secret,
      WORKER_SYNC_CRON: '0 0 1 1 *',
      WORKER_STATISTICS_CRON: 'off',
      WORKER_RECONCILE_CRON: 'off',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, () => stderr);
    sim.setWebhook({ url: `http://127.0.0.1:${port}/webhooks/weblate`, secret });
    sim.requests.reset();
    const pick = editPicker(sim, load);
    const edits = Math.round(load.editsPerMinute * load.minutes);
    const spacingMs = 60_000 / load.editsPerMinute;
    const madeAt = new Map<string, number>();
    const seenAt = new Map<string, number>();
    const start = Date.now();
    let made = 0;
    while (
      made < edits ||
      (madeAt.size > seenAt.size && Date.now() - start < 120_000 + load.minutes * 60_000)
    ) {
      const now = Date.now();
      if (made < edits && now >= start + made * spacingMs) {
        for (const id of sim.mutate.editUnits([pick(made)]).changeIds) {
          const change = sim.instance.index.changeById.get(id)!;
          madeAt.set(String(id), change.timestampUs / 1000);
        }
        made += 1;
      }
      const waiting = [...madeAt.keys()].filter((id) => !seenAt.has(id));
      if (waiting.length > 0) {
        const found = await db.query<{ id: string }>(
          'select id::text as id from weblate.changes where id = any($1::bigint[])',
          [waiting],
        );
        const seen = Date.now();
        for (const { id } of found.rows) seenAt.set(id, seen);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (seenAt.size < madeAt.size)
      throw new Error(`${madeAt.size - seenAt.size} edits never reached the mirror:\n${stderr}`);
    const lags = [...madeAt].map(([id, at]) => seenAt.get(id)! - at).sort((a, b) => a - b);
    const runs = await db.query<{ requests: number; units: number }>(
      `select requests,
              coalesce((select sum((r->>'requests')::int) from jsonb_array_elements(summary->'resources') r
                        where r->>'resource' = 'units'), 0)::int as units
         from weblate.sync_runs where kind = 'webhook' and status = 'succeeded'`,
    );
    const others = runs.rows.map((r) => r.requests - r.units);
    await sim.webhooksIdle();
    const { delivered, failed, dropped, answerMs } = sim.webhookDeliveries();
    const answers = [...answerMs].sort((a, b) => a - b);
    return {
      ...load,
      edits: lags.length,
      p50Ms: percentile(lags, 50),
      p95Ms: percentile(lags, 95),
      maxMs: lags[lags.length - 1] ?? NaN,
      batches: runs.rows.length,
      maxOtherRequests: Math.max(...others),
      meanOtherRequests: others.reduce((a, b) => a + b, 0) / others.length,
      meanUnitRequests: runs.rows.reduce((a, r) => a + r.units, 0) / runs.rows.length,
      deliveries: { delivered, failed, dropped },
      answerP95Ms: percentile(answers, 95),
      answerMaxMs: answers[answers.length - 1] ?? NaN,
    };
  } finally {
    sim.setWebhook(null);
    child.kill('SIGTERM');
    await exited;
    await db.end();
  }
}

async function waitForHealth(url: string, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the worker did not become healthy:\n${log()}`);
}

export function webhookReport(w: WebhookResult): string {
  const ok = (met: boolean) => (met ? 'met    ' : 'MISSED ');
  return [
    `webhooks, ${w.pattern === 'sessions' ? 'translators in one translation at a time, another component every minute' : 'edits scattered over the instance'}: ${w.editsPerMinute} edits a minute for ${w.minutes} min (${w.edits} edits), default debounce`,
    `  lag from edit to committed row: p50 ${(w.p50Ms / 1000).toFixed(2)} s, p95 ${(w.p95Ms / 1000).toFixed(2)} s, max ${(w.maxMs / 1000).toFixed(2)} s`,
    `  coalesced batches: ${w.batches}; requests per batch besides units: max ${w.maxOtherRequests}, mean ${w.meanOtherRequests.toFixed(2)}; unit requests per batch: mean ${w.meanUnitRequests.toFixed(2)}`,
    `  webhooks delivered ${w.deliveries.delivered}, failed ${w.deliveries.failed}, dropped ${w.deliveries.dropped}; answered in p95 ${w.answerP95Ms.toFixed(1)} ms, max ${w.answerMaxMs.toFixed(1)} ms`,
    `  ${ok(w.answerMaxMs < 100)} every webhook answered within 100 ms: ${w.answerMaxMs.toFixed(1)}`,
    `  ${ok(w.p95Ms < 5000)} lag p95 < 5 s: ${(w.p95Ms / 1000).toFixed(2)}`,
    `  ${ok(w.maxOtherRequests <= 3)} requests per batch besides units ≤ 3: ${w.maxOtherRequests}${w.pattern === 'scattered' ? ' (1 + 1 per component a batch touches)' : ''}`,
  ].join('\n');
}
