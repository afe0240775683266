// npm run test:busy [-- vitest arguments]: the test suite while other processes keep every
// core busy, as on a shared CI machine. The suite must pass like this: a test that leans on a
// wall-clock margin or on a count that scheduling can change fails here first.
//
// BUSY_PROCESSES sets the number of busy processes (default: one per core). Each spins at
// normal priority, stops when the script ends, and on its own when this process is gone or
// after BUSY_MAX_MINUTES (default 120), so a killed run leaves nothing spinning.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const count = Number(process.env.BUSY_PROCESSES ?? availableParallelism());
const maxMinutes = Number(process.env.BUSY_MAX_MINUTES ?? 120);
if (!Number.isInteger(count) || count < 0 || !(maxMinutes > 0)) {
  process.stderr.write('BUSY_PROCESSES must be a whole number, BUSY_MAX_MINUTES a positive one\n');
  process.exit(2);
}

const SPIN = `
const parent = ${process.pid};
const end = Date.now() + ${maxMinutes * 60_000};
let x = 0;
while (Date.now() < end && process.ppid === parent) {
  for (let i = 0; i < 5e6; i++) x = (x * 31 + i) | 0;
}
`;

const busy: ChildProcess[] = Array.from({ length: count }, () =>
  spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }),
);
process.stderr.write(`test:busy: ${count} busy processes beside the suite\n`);

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const suite = spawn(process.execPath, [vitest, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});

function stopBusy(): void {
  for (const child of busy) child.kill('SIGKILL');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    suite.kill(signal);
    stopBusy();
  });
}
suite.on('close', (code, signal) => {
  stopBusy();
  process.exitCode = code ?? (signal === null ? 1 : 128);
});
