import type { Kysely } from 'kysely';

import type { Database, ProjectKey } from '../db/database.ts';
import {
  type InstanceState,
  listLiveProjectKeys,
  readInstanceState,
  recordInstance,
  recordMove,
} from '../db/queries/instances.ts';
import { InstanceMismatchError, NoMirrorError } from '../errors.ts';
import { apiRootOf, isSameApiRoot } from '../lib/instance-url.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient } from '../weblate/client.ts';
import { fetchPages } from '../weblate/pages.ts';
import { ListPlanner } from '../weblate/pagination.ts';
import { PAGE_SIZE } from './reads.ts';

// One database mirrors one instance (docs/architecture.md#the-instance). Weblate's API
// names no instance id, so the instance is known by its address and, apart from it, by a
// fingerprint: the ids and slugs of the live mirrored projects, which a move of the server
// keeps and another instance almost never shares all of.

/** What a run does about its instance before it reads anything (decideInstance). */
export type InstanceCheck =
  /** WEBLATE_URL is the recorded address: go on, at no cost. */
  | { kind: 'recorded' }
  /** WEBLATE_URL is another address than the recorded one: the run fails. */
  | { kind: 'refused'; recorded: string }
  /** Nothing mirrored names an instance yet: record WEBLATE_URL. */
  | { kind: 'first' }
  /** A database from before the record, whose earlier runs read WEBLATE_URL: adopt it. */
  | { kind: 'adopt' }
  /** Such a database whose earlier runs read another address (or none): check, then adopt. */
  | { kind: 'verify'; earlier: string | null };

/**
 * The check a run makes (pure). A database synced before the record existed adopts
 * WEBLATE_URL at no cost where its earlier runs read that address; where they read another,
 * the server must serve the projects the database mirrors (one read of the project list).
 */
export function decideInstance(state: InstanceState, configured: string): InstanceCheck {
  if (state.record !== null) {
    return isSameApiRoot(state.record.api_root, configured)
      ? { kind: 'recorded' }
      : { kind: 'refused', recorded: state.record.api_root };
  }
  if (state.earlierApiRoot !== null && isSameApiRoot(state.earlierApiRoot, configured))
    return { kind: 'adopt' };
  if (!state.hasLiveProjects) return { kind: 'first' };
  return { kind: 'verify', earlier: state.earlierApiRoot };
}

/** How a server's project list compares with a fingerprint (matchFingerprint). */
export interface FingerprintMatch {
  /** Every fingerprint project is served with its id and slug (and there is one at least). */
  isConfirmed: boolean;
  /** The fingerprint projects the server does not serve with their id and slug. */
  missing: ProjectKey[];
}

/**
 * The rule: an address serves the mirrored instance when every project of the fingerprint is
 * among its projects with the same id and slug (pure). More projects there are fine (created
 * since); an empty fingerprint confirms nothing.
 */
export function matchFingerprint(
  fingerprint: readonly ProjectKey[],
  served: readonly ProjectKey[],
): FingerprintMatch {
  const slugs = new Map(served.map((p) => [p.id, p.slug]));
  const missing = fingerprint.filter((p) => slugs.get(p.id) !== p.slug);
  return { isConfirmed: fingerprint.length > 0 && missing.length === 0, missing };
}

/** The one line a run against another instance fails with. */
export function mismatchMessage(recorded: string, configured: string): string {
  return (
    `this database mirrors the Weblate instance at ${recorded}, not ${configured} (WEBLATE_URL); ` +
    `nothing was read. To mirror ${configured}, use another database (DATABASE_URL or ` +
    'WEBLATE_MIRROR_DATA_DIR); if the same instance moved there, run ' +
    `\`weblate-mirror move-instance --to ${configured}\`.`
  );
}

/** What a run's context offers the check. */
interface CheckContext {
  db: Kysely<Database>;
  client: WeblateClient;
  log: Logger;
  signal?: AbortSignal;
}

/** What a run may do after its check: the API root it mirrors, and whether it is recorded. */
export interface CheckedInstance {
  apiRoot: string;
  /**
   * False for the first sync of a database: it records the instance once it wrote rows
   * (recordFirstInstance), so that a first run that reached nothing (a mistyped
   * WEBLATE_URL) ties the database to no address.
   */
  isRecorded: boolean;
}

/**
 * Checks WEBLATE_URL against the instance the database mirrors, before the run reads
 * anything, and adopts it for a database from before the record. Throws
 * InstanceMismatchError when the run must not go on.
 */
export async function checkInstance(ctx: CheckContext): Promise<CheckedInstance> {
  const apiRoot = apiRootOf(ctx.client.apiRoot);
  const check = decideInstance(await readInstanceState(ctx.db), apiRoot);
  switch (check.kind) {
    case 'recorded':
      return { apiRoot, isRecorded: true };
    case 'refused':
      throw new InstanceMismatchError(mismatchMessage(check.recorded, apiRoot));
    case 'first':
      return { apiRoot, isRecorded: false };
    case 'adopt':
      await recordInstance(ctx.db, apiRoot);
      ctx.log.info(
        { instance: apiRoot },
        'instance recorded: the earlier runs of this database read it',
      );
      return { apiRoot, isRecorded: true };
    case 'verify':
      await adoptChecked(ctx, apiRoot, check.earlier);
      return { apiRoot, isRecorded: true };
  }
}

/**
 * What a run against `apiRoot` would do about its instance, for the commands that only look
 * (check, sync --dry-run): null when it may go on, else the line the run would fail with.
 */
export async function instanceRefusal(
  db: Kysely<Database>,
  apiRoot: string,
): Promise<string | null> {
  const check = decideInstance(await readInstanceState(db), apiRootOf(apiRoot));
  return check.kind === 'refused' ? mismatchMessage(check.recorded, apiRootOf(apiRoot)) : null;
}

/** Records the instance a first sync mirrored, once it wrote something (see CheckedInstance). */
export async function recordFirstInstance(ctx: CheckContext, apiRoot: string): Promise<void> {
  await recordInstance(ctx.db, apiRoot);
  ctx.log.info({ instance: apiRoot }, 'instance recorded: this database mirrors it');
}

/**
 * A database from before the record, whose earlier runs read another address: WEBLATE_URL
 * is adopted (with the stored links moved to it) when it serves the projects the database
 * mirrors; otherwise the earlier address is recorded and the run fails.
 */
async function adoptChecked(
  ctx: CheckContext,
  configured: string,
  earlier: string | null,
): Promise<void> {
  const match = matchFingerprint(
    await listLiveProjectKeys(ctx.db),
    await readServedProjects(ctx.client, ctx.signal),
  );
  if (!match.isConfirmed) {
    if (earlier !== null) await recordInstance(ctx.db, apiRootOf(earlier));
    throw new InstanceMismatchError(
      mismatchMessage(earlier === null ? 'another address' : apiRootOf(earlier), configured),
    );
  }
  const links = await recordMove(ctx.db, moveOf(earlier, configured));
  ctx.log.info(
    { instance: configured, earlier, links },
    'instance recorded: it serves the projects this database mirrors',
  );
}

/** The ids and slugs of every project the server lists to the token. */
export async function readServedProjects(
  client: WeblateClient,
  signal?: AbortSignal,
): Promise<ProjectKey[]> {
  const resource = 'projects';
  const planner = new ListPlanner(client, 'projects/', {
    resource,
    pageSize: client.pageSize(PAGE_SIZE.standard),
  });
  const served: ProjectKey[] = [];
  for await (const page of fetchPages(client, planner, { resource, signal })) {
    for (const record of page.results) {
      const { id, slug } = (record ?? {}) as { id?: unknown; slug?: unknown };
      if (typeof id === 'number' && typeof slug === 'string') served.push({ id, slug });
    }
  }
  return served;
}

/**
 * The stored links to move: those on the old site root, and on its http:// form where it
 * is https (Weblate behind a proxy it does not know about writes such links).
 */
function moveOf(from: string | null, to: string) {
  const site = (apiRoot: string) => new URL('..', apiRootOf(apiRoot)).href;
  const fromSites =
    from === null
      ? []
      : [
          site(from),
          ...(from.startsWith('https:') ? [site(from).replace(/^https:/, 'http:')] : []),
        ];
  return { to, fromSites, toSite: site(to) };
}

/** What `weblate-mirror move-instance` did (moveInstance). */
export type MoveOutcome =
  | { status: 'moved'; from: string; to: string; links: number; projects: number | null }
  | { status: 'unchanged'; to: string }
  | { status: 'refused'; from: string; to: string; missing: ProjectKey[]; projects: number };

/**
 * Records that the mirrored instance moved to the client's address, once that address
 * serves the instance's fingerprint (`force`: unchecked), and moves the stored links to it,
 * so that the next incremental sync goes on from its cursors. A database without a record
 * takes its earlier runs' address as the old one.
 */
export async function moveInstance(
  ctx: CheckContext,
  options: { force: boolean },
): Promise<MoveOutcome> {
  const to = apiRootOf(ctx.client.apiRoot);
  const state = await readInstanceState(ctx.db);
  const recorded = state.record?.api_root ?? state.earlierApiRoot;
  const from = recorded === null ? null : apiRootOf(recorded);
  if (from === null)
    throw new NoMirrorError(
      'this database mirrors no instance yet, so there is no move to record: run `weblate-mirror sync` to mirror one',
    );
  if (isSameApiRoot(from, to)) {
    await recordInstance(ctx.db, to);
    return { status: 'unchanged', to };
  }
  const fingerprint = state.record?.fingerprint ?? (await listLiveProjectKeys(ctx.db));
  let projects: number | null = null;
  if (!options.force) {
    const match = matchFingerprint(fingerprint, await readServedProjects(ctx.client, ctx.signal));
    if (!match.isConfirmed)
      return { status: 'refused', from, to, missing: match.missing, projects: fingerprint.length };
    projects = fingerprint.length;
  }
  const links = await recordMove(ctx.db, moveOf(from, to));
  return { status: 'moved', from, to, links, projects };
}

/** The line `move-instance` prints for an outcome, and its exit code. */
export function describeMove(outcome: MoveOutcome): { line: string; code: number } {
  switch (outcome.status) {
    case 'moved':
      return {
        line:
          `recorded that the mirrored instance moved from ${outcome.from} to ${outcome.to}` +
          (outcome.projects === null
            ? ' (unchecked: --force)'
            : ` (all ${outcome.projects} of its projects found there)`) +
          `; ${outcome.links} stored rows' links rewritten, the next sync goes on from where it was`,
        code: 0,
      };
    case 'unchanged':
      return { line: `this database already records ${outcome.to}; nothing to move`, code: 0 };
    case 'refused':
      return { line: refusalLine(outcome), code: 2 };
  }
}

function refusalLine(outcome: Extract<MoveOutcome, { status: 'refused' }>): string {
  const nothing = 'Nothing was changed.';
  const force =
    'If it is the same instance (a project renamed or deleted since the last sync, or a token ' +
    'that sees fewer projects), run move-instance again with --force.';
  if (outcome.projects === 0)
    return `the record of ${outcome.from} names no project to look for at ${outcome.to} (no sync has completed yet). ${nothing} ${force}`;
  const shown = outcome.missing.slice(0, 3).map((p) => `${p.slug} (id ${p.id})`);
  const more = outcome.missing.length > 3 ? ` and ${outcome.missing.length - 3} more` : '';
  return (
    `${outcome.to} does not serve the instance this database mirrors (${outcome.from}): ` +
    `${outcome.missing.length} of its ${outcome.projects} projects ${outcome.missing.length === 1 ? 'is' : 'are'} ` +
    `not there with the same id and slug (${shown.join(', ')}${more}). ${nothing} ${force}`
  );
}
