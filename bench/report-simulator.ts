/**
 * The simulated instance of bench/report-read.ts, served from a process of its own: at
 * 1,000,000 units and 1,000,000 changes the generated instance needs a larger heap than the
 * benchmark's (Node's default is about 4 GB here), and its memory stays out of the
 * benchmark's. Prints one JSON line (the URL, the users with subscriptions and the instance's
 * counts) once it listens, and serves until its stdin closes.
 *
 *   node --max-old-space-size=12000 --import tsx bench/report-simulator.ts --projects 1000 …
 */
import { parseArgs } from 'node:util';

import { startSimulator } from '../src/simulator/index.ts';
import { fillAutomatically } from '../src/simulator/machine-fills.ts';

/** What the benchmark learns of the instance it syncs. */
export interface ServedInstance {
  url: string;
  users: string[];
  projects: number;
  components: number;
  translations: number;
  units: number;
  changes: number;
  categories: number;
  labels: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      projects: { type: 'string', default: '1000' },
      components: { type: 'string', default: '5000' },
      languages: { type: 'string', default: '10' },
      units: { type: 'string', default: '1000000' },
      changes: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '7' },
    },
  });
  const int = (name: keyof typeof values) => Number.parseInt(String(values[name]), 10);
  const sim = await startSimulator({
    seed: int('seed'),
    projects: int('projects'),
    components: int('components'),
    languages: int('languages'),
    units: int('units'),
    changes: int('changes'),
    users: 3,
    categoriesAndLabels: true,
    // The newest change an hour ago, as in the demo: the report's last 7 and 30 days hold
    // activity, and the daily views run from the history's first day to today.
    historyEndsAt: Date.now() - 3_600_000,
  });
  // Machine translation as the demo has it, in a tenth of the translations (about 30,000
  // strings), so that the post-editing answers read something at this size.
  fillAutomatically(sim, Math.ceil(sim.instance.translations.length / 10));
  const { instance } = sim;
  const served: ServedInstance = {
    url: sim.url,
    users: instance.users.filter((u) => u.subscriptions.length > 0).map((u) => u.username),
    projects: instance.projects.length,
    components: instance.components.length,
    translations: instance.translations.length,
    units: instance.units.length,
    changes: instance.changes.length,
    categories: instance.categories.length,
    labels: instance.labels.length,
  };
  process.stdout.write(`${JSON.stringify(served)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void sim.close().then(() => process.exit(0));
  });
}

await main();
