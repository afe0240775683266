import type { Kysely } from 'kysely';

import type { Database } from '../../db/database.ts';
import { readInstance } from '../../db/queries/instances.ts';
import { listMovers, readActivityTotal } from '../../db/queries/report-activity.ts';
import { listStalledSection } from '../../db/queries/report-backlog.ts';
import { listLanguageProgressDaily } from '../../db/queries/report-progress.ts';
import { READINESS_THRESHOLDS } from '../../db/queries/report-readiness.ts';
import { listReviewWaiting } from '../../db/queries/report-review.ts';
import {
  type DayRange,
  readReportClock,
  type ReportFilter,
} from '../../db/queries/report-scope.ts';
import { listNewWork } from '../../db/queries/report-work.ts';
import { lastSucceededSyncAt } from '../../db/queries/sync-runs.ts';
import {
  type DigestProjectLink,
  listDigestProjectLinks,
  listDigestTranslationLinks,
} from '../../db/queries/watch-digest.ts';
import { inOneSnapshot } from '../../db/snapshot.ts';
import { periodOf } from '../../report/build-answers.ts';
import { addDays } from '../../report/days.ts';
import type { Digest, DigestList, DigestReady } from './model.ts';

/** Rows per list of movers, stalled translations and review, as the report's default --limit. */
export const DIGEST_LIMIT = 10;

/** What a digest covers: the report's filter, resolved (a category as its project and components). */
export interface DigestScope {
  projects: string[];
  language: string | null;
  /** Slugs of a category's components; null for every component. */
  components: string[] | null;
  /** `project/path` of that category, for people; null for none. */
  category: string | null;
}

export interface DigestOptions {
  every: 'day' | 'week';
  period: DayRange;
  scope: DigestScope;
  /** Weblate's web root for links the mirror has no URL for; absent: from weblate.instances. */
  instanceUrl?: string | null;
  limit?: number;
}

/** The web root of an API root (`https://host/api/` → `https://host/`), or null. */
export function webRootOf(apiRoot: string | null): string | null {
  if (apiRoot === null) return null;
  try {
    const url = new URL(apiRoot);
    url.pathname = url.pathname.replace(/api\/?$/, '');
    url.search = '';
    url.hash = '';
    return url.href.endsWith('/') ? url.href : `${url.href}/`;
  } catch {
    return null;
  }
}

/**
 * One digest's content, read in one snapshot with the report's own reads over the period as
 * its window (docs/watching.md, "Digests"): its figures are the report's for that window.
 */
export async function buildDigest(db: Kysely<Database>, options: DigestOptions): Promise<Digest> {
  const { period, scope } = options;
  const limit = options.limit ?? DIGEST_LIMIT;
  const filter: ReportFilter = {
    projects: scope.projects,
    language: scope.language,
    components: scope.components,
  };
  const inWindow = { ...filter, ...period };
  const baselineDay = addDays(period.from, -1);
  return inOneSnapshot(db, 1, async (read) => {
    const { now } = await read(readReportClock);
    const instanceUrl =
      options.instanceUrl !== undefined
        ? webRootOf(options.instanceUrl)
        : webRootOf((await read(readInstance))?.api_root ?? null);
    const projects = await read((d) => listDigestProjectLinks(d, filter));
    const links = linker(
      instanceUrl,
      projects,
      await read((d) => listDigestTranslationLinks(d, filter)),
    );
    const movers = await read((d) =>
      listMovers(d, filter, { baselineDay, today: period.to, limit }),
    );
    const stalled = await read((d) => listStalledSection(d, filter, { since: period.from, limit }));
    const review = await read((d) => listReviewWaiting(d, filter, limit));
    const ready = await read((d) => listReady(d, filter, { period, projects }));
    const newWork = await read((d) =>
      listNewWork(d, filter, { window: period, period: periodOf(period) }),
    );
    const activity = await read((d) => readActivityTotal(d, inWindow));
    return {
      key: `digest/${options.every}/${period.from}`,
      every: options.every,
      from: period.from,
      to: period.to,
      generated_at: now,
      data_as_of: await read(lastSucceededSyncAt),
      instance_url: instanceUrl,
      scope: { projects: [...scope.projects], language: scope.language, category: scope.category },
      movers: {
        baseline_day: baselineDay,
        ...linked(movers, (r) => ({ ...r, ...links.translation(r, 'web') })),
      },
      stalled: linked(stalled, (r) => ({ ...r, ...links.translation(r, 'translate') })),
      ready: ready.map((r) => ({ ...r, ...links.projectLanguage(r) })),
      review: linked(review, (r) => ({ ...r, ...links.projectLanguage(r) })),
      new_work: newWork,
      activity,
    };
  });
}

/** The rows without their `matching`, which goes to the list, each row mapped. */
function linked<Row extends { matching: string }, Out>(
  rows: Row[],
  map: (row: Omit<Row, 'matching'>) => Out,
): DigestList<Out> {
  return {
    matching: rows[0]?.matching ?? '0',
    rows: rows.map(({ matching: _, ...row }) => map(row)),
  };
}

/**
 * Languages of each project whose translated words crossed a level of READINESS_THRESHOLDS
 * upward from the end of the day before the period to its last day, in the progress history
 * the report's language history reads (one project at a time: it sums per language).
 */
async function listReady(
  db: Kysely<Database>,
  filter: ReportFilter,
  options: { period: DayRange; projects: DigestProjectLink[] },
): Promise<Omit<DigestReady, 'project_name' | 'url'>[]> {
  const { period } = options;
  const baselineDay = addDays(period.from, -1);
  const ready: Omit<DigestReady, 'project_name' | 'url'>[] = [];
  for (const { project_slug } of options.projects) {
    const days = await listLanguageProgressDaily(db, {
      ...filter,
      projects: [project_slug],
      from: baselineDay,
      to: period.to,
    });
    const at = (day: string, code: string) =>
      days.find((d) => d.day === day && d.language_code === code)?.translated_words_percent ?? null;
    for (const code of [...new Set(days.map((d) => d.language_code))]) {
      const then = at(baselineDay, code);
      const now = at(period.to, code);
      if (then === null || now === null) continue;
      const levels = READINESS_THRESHOLDS.filter((t) => Number(then) < t && Number(now) >= t);
      if (levels.length > 0)
        ready.push({
          project_slug,
          language_code: code,
          levels: [...levels],
          translated_words_percent_then: then,
          translated_words_percent_now: now,
        });
    }
  }
  return ready;
}

/** Builds the links of rows: the mirrored URLs first, else ones made from the web root. */
function linker(
  root: string | null,
  projects: DigestProjectLink[],
  translations: Awaited<ReturnType<typeof listDigestTranslationLinks>>,
) {
  const byProject = new Map(projects.map((p) => [p.project_slug, p]));
  const byTranslation = new Map(
    translations.map((t) => [`${t.project_slug}/${t.component_slug}/${t.language_code}`, t]),
  );
  const path = (...slugs: string[]) => slugs.map((s) => `${encodeURIComponent(s)}/`).join('');
  const projectUrl = (slug: string) =>
    withSlash(byProject.get(slug)?.web_url ?? null) ??
    (root === null ? null : `${root}projects/${path(slug)}`);
  const name = (slug: string) => byProject.get(slug)?.project_name ?? slug;
  return {
    projectLanguage(row: { project_slug: string; language_code: string }) {
      const project = projectUrl(row.project_slug);
      return {
        project_name: name(row.project_slug),
        url: project === null ? null : `${project}-/${path(row.language_code)}`,
      };
    },
    translation(
      row: { project_slug: string; component_slug: string; language_code: string },
      kind: 'web' | 'translate',
    ) {
      const known = byTranslation.get(
        `${row.project_slug}/${row.component_slug}/${row.language_code}`,
      );
      const mirrored =
        kind === 'translate'
          ? (known?.translate_url ?? known?.web_url)
          : (known?.web_url ?? known?.translate_url);
      const made =
        root === null
          ? null
          : `${root}projects/${path(row.project_slug, row.component_slug, row.language_code)}`;
      return { project_name: name(row.project_slug), url: mirrored ?? made };
    },
  };
}

function withSlash(url: string | null): string | null {
  if (url === null) return null;
  return url.endsWith('/') ? url : `${url}/`;
}
