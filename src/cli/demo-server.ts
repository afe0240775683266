import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { type SimulatorOptions, type SimulatorSize, startSimulator } from '../simulator/index.ts';
import { fillAutomatically } from '../simulator/machine-fills.ts';

/**
 * The demo's simulated Weblate, served by a process of its own as a real Weblate would be:
 * the demo's own process then holds the mirror and its embedded database only, and its
 * memory is what a user's mirror needs (the simulated instance alone holds about 140 MB).
 */
export interface DemoServer {
  url: string;
  /** Usernames of the simulated users, for WEBLATE_USERS. */
  users: string[];
  close(): Promise<void>;
}

type DemoOptions = Pick<
  SimulatorOptions,
  'seed' | 'historyEndsAt' | 'categoriesAndLabels' | 'port'
> &
  Partial<SimulatorSize>;

interface Started {
  url: string;
  users: string[];
}

const isSource = import.meta.url.endsWith('.ts');
/**
 * The child's entry: this module, whether from the sources or compiled; from the CLI bundle
 * (dist/src/cli/bundle.js, see scripts/bundle-cli.ts), the compiled module beside it.
 */
const childEntry = fileURLToPath(
  isSource ? import.meta.url : new URL('./demo-server.js', import.meta.url),
);

/** Starts the simulator in a child process and waits until it listens. */
export async function startDemoServer(options: DemoOptions): Promise<DemoServer> {
  const child = fork(childEntry, [JSON.stringify(options)], {
    // From the TypeScript sources (see bin/), the child needs tsx as the parent does.
    execArgv: isSource ? ['--import', import.meta.resolve('tsx')] : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the simulated Weblate stopped before it listened (exit code ${String(code)})`);
  });
  const [started] = (await Promise.race([once(child, 'message'), exited])) as [Started];
  return {
    ...started,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** In the child: serve the instance the parent asked for until it goes away. */
async function serve(): Promise<void> {
  const options = JSON.parse(process.argv[2]!) as DemoOptions;
  const simulator = await startSimulator(options);
  fillAutomatically(simulator);
  const stop = () => void simulator.close().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  const started: Started = {
    url: simulator.url,
    users: simulator.instance.users.map((u) => u.username),
  };
  process.send!(started);
}

if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) await serve();
