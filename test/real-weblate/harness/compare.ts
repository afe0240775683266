import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../../../src/db/database.ts';
import type { TierApi } from './api.ts';

/** One way the mirror differs from what Weblate answers now. */
export interface Difference {
  what: string;
  detail: unknown;
}

export interface Scope {
  /** Project slugs, or null for every project. */
  projects: string[] | null;
  users: string[];
}

/**
 * Compares the mirror's live rows with what the same Weblate answers now, fetched by the test
 * itself from the list endpoints the mirror reads. Records are compared as jsonb in SQL, so
 * 64-bit integers and microseconds are compared exactly, never through JavaScript numbers.
 */
export async function compareWithWeblate(
  db: Kysely<Database>,
  api: TierApi,
  scope: Scope,
): Promise<Difference[]> {
  const differences: Difference[] = [];
  const check = async (what: string, found: Promise<Difference[]>) =>
    differences.push(...(await found).map((d) => ({ ...d, what: `${what}: ${d.what}` })));

  await check(
    'languages',
    compareList(db, await api.listPages('languages/'), {
      table: 'languages',
      key: sql`code`,
      fetchedKey: sql`r->>'code'`,
      live: sql`true`,
    }),
  );
  const projectSlugs =
    scope.projects ?? (await api.listAll<{ slug: string }>('projects/')).map((p) => p.slug);
  const projectPages =
    scope.projects === null
      ? await api.listPages('projects/')
      : [
          await singlePage(
            api,
            scope.projects.map((slug) => `projects/${slug}/`),
          ),
        ];
  const inScope = sql.join(projectSlugs.map((slug) => sql.lit(slug)));
  await check(
    'projects',
    compareList(db, projectPages, {
      table: 'projects',
      live: sql`deleted_at is null and slug in (${inScope})`,
    }),
  );

  // The mirror reads the global lists when every project is in scope (whose records nest their
  // project or component) and the project's and component's own lists otherwise (which do not).
  const isGlobal = scope.projects === null;
  const componentPages = isGlobal ? await api.listPages('components/') : [];
  const translationPages = isGlobal ? await api.listPages('translations/') : [];
  const statisticsPages: Array<{ component: number; text: string }> = [];
  for (const slug of projectSlugs) {
    const components = await api.listAll<{ id: number; url: string }>(
      `projects/${slug}/components/`,
    );
    if (!isGlobal) componentPages.push(...(await api.listPages(`projects/${slug}/components/`)));
    for (const component of components) {
      // The component's own path (one in a category is addressed by its path, `%252F`), on
      // the server asked: its links may name another origin (a proxy's).
      const url = (path: string) => `${new URL(component.url).pathname}${path}`;
      if (!isGlobal) translationPages.push(...(await api.listPages(url('translations/'))));
      for (const text of await api.listPages(url('statistics/'))) {
        statisticsPages.push({ component: component.id, text });
      }
    }
  }
  await check(
    'components',
    compareList(db, componentPages, {
      table: 'components',
      live: sql`deleted_at is null and project_slug in (${inScope})`,
    }),
  );
  await check(
    'translations',
    compareList(db, translationPages, {
      table: 'translations',
      live: sql`deleted_at is null and project_slug in (${inScope})`,
    }),
  );

  const unitPages: string[] = [];
  for (const slug of scope.projects === null ? [null] : projectSlugs) {
    const url = api.url('units/');
    if (slug !== null) url.searchParams.set('q', `project:${slug}`);
    unitPages.push(...(await api.listPages(url, 1000)));
  }
  await check(
    'units',
    compareList(db, unitPages, {
      table: 'units',
      live: sql`deleted_at is null and translation_id in (
      select id from weblate.translations where project_slug in (${inScope}))`,
    }),
  );

  // Every project in scope: the global list, which the mirror reads (project-level changes have
  // no project there); else each project's.
  const changePages: string[] = [];
  if (scope.projects === null) changePages.push(...(await api.listPages('changes/')));
  else
    for (const slug of projectSlugs)
      changePages.push(...(await api.listPages(`projects/${slug}/changes/`)));
  // The mirror keeps changes Weblate deleted with their objects: compare what Weblate still has.
  await check(
    'changes',
    compareList(db, changePages, {
      table: 'changes',
      live: scope.projects === null ? sql`true` : sql`project_slug in (${inScope})`,
      onlyFetched: true,
    }),
  );

  await check('translation statistics', compareStatistics(db, statisticsPages));
  const languages = await db
    .selectFrom('weblate.translations')
    .select('language_code')
    .distinct()
    .where('deleted_at', 'is', null)
    .where('project_slug', 'in', projectSlugs)
    .execute();
  const languageStatistics = await singlePage(
    api,
    languages.map((l) => `languages/${encodeURIComponent(l.language_code)}/statistics/`),
  );
  await check(
    'language statistics',
    compareList(db, [languageStatistics], {
      table: 'language_statistics',
      key: sql`language_code`,
      // A language's statistics name it only in their URL.
      fetchedKey: sql`substring(r->>'url' from '/languages/([^/]+)/$')`,
      live: sql`(language_code, captured_at) in (
      select language_code, max(captured_at) from weblate.language_statistics group by 1)
      and language_code in (${sql.join(languages.map((l) => sql.lit(l.language_code)))})`,
    }),
  );

  for (const user of scope.users) {
    const pages = await api.listPages(`users/${user}/notifications/`);
    await check(
      `subscriptions of ${user}`,
      compareList(db, pages, {
        table: 'notification_subscriptions',
        live: sql`deleted_at is null and username = ${user}`,
      }),
    );
    await check(`subscription targets of ${user}`, compareSubscriptionTargets(db, pages));
  }
  return differences;
}

/**
 * The typed target of each subscription: the slugs its record names (a nested object up to
 * 5.14, an API link since 5.15), and the ids the nested object gives or else those of the live
 * mirrored objects with those slugs.
 */
async function compareSubscriptionTargets(
  db: Kysely<Database>,
  pages: string[],
): Promise<Difference[]> {
  const rows = await sql<{ id: number; expected: unknown; mirrored: unknown }>`
    with f as (
      select (r->>'id')::int as id,
        coalesce(r->'project'->>'slug', substring(r->>'project' from '/api/projects/([^/]+)/$'),
          r->'component'->'project'->>'slug',
          substring(r->>'component' from '/api/components/([^/]+)/[^/]+/$')) as project,
        coalesce(r->'component'->>'slug',
          substring(r->>'component' from '/api/components/[^/]+/([^/]+)/$')) as component,
        (r->'project'->>'id')::int as project_id, (r->'component'->>'id')::int as component_id
      from jsonb_array_elements(${`[${pages.join(',')}]`}::jsonb) page,
        jsonb_array_elements(page->'results') r
    ), expected as (
      select f.id, jsonb_build_object('project', f.project, 'component', f.component,
        'project_id', coalesce(f.project_id, case when f.component is null then p.id end),
        'component_id', coalesce(f.component_id, c.id)) as e
      from f
      left join weblate.projects p on p.slug = f.project and p.deleted_at is null
      left join weblate.components c
        on c.project_slug = f.project and c.slug = f.component and c.deleted_at is null
    )
    select e.id, e.e as expected, jsonb_build_object('project', s.project,
      'component', s.component, 'project_id', s.project_id, 'component_id', s.component_id) as mirrored
    from expected e left join weblate.notification_subscriptions s on s.id = e.id
    where s.id is null or e.e is distinct from jsonb_build_object('project', s.project,
      'component', s.component, 'project_id', s.project_id, 'component_id', s.component_id)
    order by e.id`.execute(db);
  return rows.rows.map((r) => ({
    what: `subscription ${r.id}`,
    detail: { expected: r.expected, mirrored: r.mirrored },
  }));
}

/** Single objects (details, statistics) as one page, so that they compare like a list. */
async function singlePage(api: TierApi, paths: string[]): Promise<string> {
  const texts: string[] = [];
  for (const path of paths) texts.push(await api.getText(path));
  return `{"results":[${texts.join(',')}]}`;
}

interface ListComparison {
  table: string;
  /** The mirror's key, as text; the id by default. */
  key?: RawBuilder<unknown>;
  /** The same key of a fetched record `r`; its id by default. */
  fetchedKey?: RawBuilder<unknown>;
  /** Which of the mirror's rows must be in the list. */
  live: RawBuilder<unknown>;
  /** Only fetched records must be in the mirror (it may keep more). */
  onlyFetched?: boolean;
}

async function compareList(
  db: Kysely<Database>,
  pages: string[],
  spec: ListComparison,
): Promise<Difference[]> {
  const join = spec.onlyFetched ? sql`left join` : sql`full join`;
  const rows = await sql<{
    fetched_key: string | null;
    mirror_key: string | null;
    fetched: string | null;
    mirrored: string | null;
    fields: string | null;
  }>`
    with f as (
      select r, ${spec.fetchedKey ?? sql`r->>'id'`} as k
      from jsonb_array_elements(${`[${pages.join(',')}]`}::jsonb) page, jsonb_array_elements(page->'results') r
    ), m as (
      select ${spec.key ?? sql`id::text`} as k, raw from ${sql.table(`weblate.${spec.table}`)} where ${spec.live}
    )
    select f.k as fetched_key, m.k as mirror_key, left(f.r::text, 300) as fetched, left(m.raw::text, 300) as mirrored,
      (select jsonb_object_agg(key, jsonb_build_object('weblate', f.r->key, 'mirror', m.raw->key))::text
       from (select jsonb_object_keys(f.r) union select jsonb_object_keys(m.raw)) keys(key)
       where f.r->key is distinct from m.raw->key) as fields
    from f ${join} m on f.k = m.k
    where f.r is distinct from m.raw
    order by coalesce(f.k, m.k) limit 5`.execute(db);
  return rows.rows.map((row) => ({
    what:
      row.mirror_key === null
        ? `${row.fetched_key} is missing from the mirror`
        : row.fetched_key === null
          ? `${row.mirror_key} is live in the mirror but not listed by Weblate`
          : `${row.mirror_key} differs`,
    detail:
      row.fields !== null
        ? { fields: row.fields.slice(0, 2000) }
        : { fetched: row.fetched, mirrored: row.mirrored },
  }));
}

/** Component statistics lists against each translation's latest snapshot. */
async function compareStatistics(
  db: Kysely<Database>,
  pages: Array<{ component: number; text: string }>,
): Promise<Difference[]> {
  const differences: Difference[] = [];
  for (const { component, text } of pages) {
    differences.push(
      ...(await compareList(db, [text], {
        table: 'translation_statistics',
        key: sql`code`,
        fetchedKey: sql`r->>'code'`,
        live: sql`(translation_id, captured_at) in (
          select s.translation_id, max(s.captured_at) from weblate.translation_statistics s
          join weblate.translations t on t.id = s.translation_id
          where t.component_id = ${component} and t.deleted_at is null group by 1)`,
      })),
    );
  }
  return differences;
}

/**
 * Typed columns that disagree with the record they came from: every column named like a field
 * of `raw` must hold that field exactly (timestamps as instants, to the microsecond; 64-bit
 * integers, texts and arrays as jsonb). Returns up to five mismatches per table.
 */
export async function typedColumnMismatches(
  db: Kysely<Database>,
  table: string,
): Promise<Difference[]> {
  // A subscription's target is a slug of the nested object or link: compareSubscriptionTargets.
  const derived = table === 'notification_subscriptions' ? ['project', 'component'] : [];
  const columns = await sql<{ column_name: string; data_type: string }>`
    select column_name, data_type from information_schema.columns
    where table_schema = 'weblate' and table_name = ${table}
      and column_name not in ('raw', 'first_seen_at', 'updated_at', 'deleted_at', 'captured_at',
        'last_seen_at', 'run_id', ${sql.join(['', ...derived])})
    order by ordinal_position`.execute(db);
  const differences: Difference[] = [];
  for (const { column_name: column, data_type: type } of columns.rows) {
    const ref = sql.ref(column);
    const field = sql.lit(column);
    const differs =
      type === 'timestamp with time zone'
        ? sql`${ref} is distinct from (raw->>${field})::timestamptz`
        : sql`coalesce(to_jsonb(${ref}), 'null'::jsonb) is distinct from raw->${field}`;
    const rows = await sql<{ value: string | null; field: string | null }>`
      select ${ref}::text as value, (raw->${field})::text as field from ${sql.table(`weblate.${table}`)}
      where raw ? ${field} and ${differs} limit 5`.execute(db);
    for (const row of rows.rows) differences.push({ what: `${table}.${column}`, detail: row });
  }
  return differences;
}
