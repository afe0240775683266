import type { Config } from '../../config.ts';
import { InstanceMismatchError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { type DryRun, dryRun, dryRunDocument } from '../../sync/dry-run.ts';
import { formatTable } from '../../sync/summary.ts';
import { print, printError, printJson } from '../runtime.ts';

/** `sync --dry-run`: what the next sync would read, on stdout (with `json`, its document). */
export async function dryRunOnce(
  config: Config,
  log: Logger,
  options: { signal?: AbortSignal; full: boolean; json: boolean },
): Promise<number> {
  let run: DryRun;
  try {
    run = await dryRun(config, log, options);
  } catch (err) {
    // Said as the sync says it, with its exit code: a setting that does not fit.
    if (!(err instanceof InstanceMismatchError)) throw err;
    printError(`error: ${err.message}`);
    return 2;
  }
  if (options.json) printJson(dryRunDocument(run));
  else printDryRun(run);
  if (run.rejected > 0)
    printError(
      `warning: ${run.rejected} records of the lists do not fit; the sync keeps them in weblate.rejected_records`,
    );
  return 0;
}

function printDryRun(run: DryRun): void {
  const target = run.hasMirror
    ? run.database
    : `${run.database} (no mirror there yet: the sync creates it)`;
  const article = run.kind === 'incremental' ? 'an' : 'a';
  print(
    `dry run: ${article} ${run.kind} sync of ${run.instance} into ${target}; nothing was written`,
  );
  if (run.hasMirror && run.pendingMigrations.length > 0)
    print(`the sync first applies ${run.pendingMigrations.join(', ')}`);
  print();
  const cell = (n: number | null) => (n === null ? '?' : String(n));
  const doc = dryRunDocument(run);
  const more = doc.complete ? '' : '+';
  const table = formatTable(
    ['resource', 'records', 'requests'],
    [
      ...run.estimates.map((e) => [e.resource, cell(e.records), cell(e.requests)]),
      ['total', `${doc.records}${more}`, `${doc.requests}${more}`],
    ],
  ).split('\n');
  // The words after the figures, left-aligned (formatTable right-aligns all but the first).
  const basis = ['how it is known', '', ...run.estimates.map((e) => e.basis), ''];
  print(table.map((line, i) => `${line}  ${basis[i]}`.trimEnd()).join('\n'));
  print();
  print(`This dry run made ${run.requestsMade} request${run.requestsMade === 1 ? '' : 's'}.`);
}
