// The image's HEALTHCHECK. A container running the worker is healthy while its /healthz
// answers 200 (a recent successful sync, the database reachable); one running any other
// command (the default `sync`, a `run`) serves nothing to ask and is healthy while it runs.
// Process 1 is the entrypoint: node, the bin, then the command.
import { readFileSync } from 'node:fs';

const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
const command = args[args.findIndex((arg) => arg.endsWith('weblate-mirror.js')) + 1];
const port = process.env.WORKER_HTTP_PORT ?? '';
if (command !== 'worker' || port === '') process.exit(0);
const host = ['', '0.0.0.0', '::'].includes(process.env.WORKER_HTTP_HOST ?? '')
  ? '127.0.0.1'
  : process.env.WORKER_HTTP_HOST;
try {
  const response = await fetch(
    `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`,
    {
      signal: AbortSignal.timeout(4_000),
    },
  );
  process.stdout.write(`/healthz: ${response.status}\n`);
  process.exit(response.ok ? 0 : 1);
} catch (err) {
  process.stdout.write(`/healthz: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
