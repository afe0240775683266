import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import { lastSucceededSyncAt } from '../db/queries/sync-runs.ts';
import { listLanguageReadiness, listProjectPercents } from '../db/queries/watch-ready.ts';
import { inOneSnapshot } from '../db/snapshot.ts';
import type { Logger } from '../logger.ts';
import { type Badge, languageBadge, levelBadge, projectBadge, renderBadge } from './badges.ts';
import { isAtLeast, parseThreshold } from './ready.ts';

// The badge files of a mirror (docs/watching.md, "Badges"), written after each sync and served
// by the worker's /badges/ route: project/<slug>.svg, project/<slug>/<language>.svg,
// project/<slug>/languages-<X>.svg, language/<code>.svg and languages-<X>.svg. Figures are
// `ready`'s (translated strings), read in one snapshot.

export const DEFAULT_BADGE_LEVELS: readonly string[] = ['80', '90', '95'];

/**
 * A slug or code as one file name: percent-encoded as a URI component (so no separator),
 * `@` kept for codes such as sr@latin; null for what cannot be one (empty, `.` or `..`).
 */
export function fileSegment(value: string): string | null {
  if (value === '' || value === '.' || value === '..') return null;
  return encodeURIComponent(value).replace(/%40/g, '@');
}

/** The file of a badge path (segments as given), inside `dir`; null when it would not be. */
export function badgeFile(dir: string, segments: readonly string[]): string | null {
  const names = segments.map(fileSegment);
  if (names.some((n) => n === null)) return null;
  const root = resolve(dir);
  const file = resolve(root, ...(names as string[]));
  return file.startsWith(root + sep) ? file : null;
}

export interface WriteBadgesOptions {
  db: Kysely<Database>;
  dir: string;
  /** Readiness levels of the "N languages at ≥ X %" badges (default 80, 90, 95). */
  levels?: readonly (string | number)[];
  log: Logger;
}

export interface BadgeCounts {
  written: number;
  unchanged: number;
  removed: number;
}

/** Badge path (segments, the last with .svg) → its SVG. */
type BadgeSet = Map<string[], string>;

/** Every badge of the mirror as it is now, in one snapshot; empty before the first sync. */
export async function buildBadges(
  db: Kysely<Database>,
  levels: readonly string[] = DEFAULT_BADGE_LEVELS,
): Promise<BadgeSet> {
  const measure = { basis: 'translated', by: 'strings' } as const;
  return inOneSnapshot(db, 1, (read) =>
    read(async (trx) => {
      const badges: BadgeSet = new Map();
      const at = await lastSucceededSyncAt(trx);
      if (at === null) return badges;
      const add = (path: string[], badge: Badge) => badges.set(path, renderBadge(badge));
      const addLevels = (
        prefix: string[],
        percents: string[],
        project: { name: string } | null,
      ) => {
        for (const level of levels) {
          const ready = percents.filter((p) => isAtLeast(p, level)).length;
          const counts = { level, ready, languages: percents.length };
          add([...prefix, `languages-${level}.svg`], levelBadge(counts, project, at));
        }
      };
      for (const project of await listProjectPercents(trx)) {
        add(['project', `${project.slug}.svg`], projectBadge(project, at));
        const rows = await listLanguageReadiness(trx, { projects: [project.slug] }, measure);
        for (const row of rows)
          add(['project', project.slug, `${row.code}.svg`], languageBadge(row, project, at));
        addLevels(
          ['project', project.slug],
          rows.map((r) => r.percent),
          project,
        );
      }
      const languages = await listLanguageReadiness(trx, {}, measure);
      for (const row of languages)
        add(['language', `${row.code}.svg`], languageBadge(row, null, at));
      addLevels(
        [],
        languages.map((r) => r.percent),
        null,
      );
      return badges;
    }),
  );
}

/**
 * Writes the mirror's badges under `dir`: each file atomically (a temporary file renamed)
 * and only when its content changed; removes the badges of projects and languages no longer
 * mirrored (and of levels no longer asked for).
 */
export async function writeBadges(options: WriteBadgesOptions): Promise<BadgeCounts> {
  const { dir, log } = options;
  const levels = options.levels?.map((level) => {
    const canonical = parseThreshold(String(level));
    if (canonical === null)
      throw new Error(`badge level ${level} is not a percentage from 0 to 100`);
    return canonical;
  });
  const badges = await buildBadges(options.db, levels);
  const counts: BadgeCounts = { written: 0, unchanged: 0, removed: 0 };
  const kept = new Set<string>();
  for (const [segments, svg] of badges) {
    const file = badgeFile(dir, segments);
    if (file === null) {
      log.warn({ badge: segments.join('/') }, 'badge skipped: its name cannot be a file name');
      continue;
    }
    kept.add(file);
    if ((await readFile(file, 'utf8').catch(() => null)) === svg) {
      counts.unchanged++;
      continue;
    }
    await mkdir(join(file, '..'), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, svg);
    await rename(temporary, file);
    counts.written++;
  }
  counts.removed = await removeOthers(resolve(dir), kept);
  log.info({ dir, ...counts }, 'badges written');
  return counts;
}

/** Removes the .svg (and left-over .tmp) files under `dir` that are not `kept`, and emptied folders. */
async function removeOthers(dir: string, kept: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  const visit = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      // At the top only what the badges are: other files of the folder are not ours.
      const isOurs = depth > 0 || /^(project|language|languages-.*\.(svg|tmp))$/.test(entry.name);
      if (!isOurs) continue;
      if (entry.isDirectory() && depth < 2) {
        await visit(path, depth + 1);
        // Only a folder this left empty goes; rmdir refuses any other.
        await rmdir(path).catch(() => undefined);
      } else if (entry.isFile() && /\.(svg|tmp)$/.test(entry.name) && !kept.has(path)) {
        await rm(path, { force: true });
        if (entry.name.endsWith('.svg')) removed++;
      }
    }
  };
  await visit(dir, 0);
  return removed;
}
