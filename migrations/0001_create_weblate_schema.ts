import { type Kysely, sql } from 'kysely';

// The warehouse contract: every table lives in the `weblate` schema and keeps the API's
// record in `raw jsonb` next to the typed columns. Frozen once merged; add a new migration.

const STATES: Array<[number, string]> = [
  [0, 'empty'],
  [10, 'needs editing'],
  [11, 'needs rewriting'],
  [12, 'needs checking'],
  [20, 'translated'],
  [30, 'approved'],
  [100, 'read-only'],
];

// English labels of Weblate's ActionEvents (weblate/trans/actions.py). Servers send a
// localised `action_name`; unknown codes are added as they are seen.
const ACTIONS: Array<[number, string]> = [
  [0, 'Resource updated'],
  [1, 'Translation completed'],
  [2, 'Translation changed'],
  [3, 'Comment added'],
  [4, 'Suggestion added'],
  [5, 'Translation added'],
  [6, 'Automatically translated'],
  [7, 'Suggestion accepted'],
  [8, 'Translation reverted'],
  [9, 'Translation uploaded'],
  [13, 'Source string added'],
  [14, 'Component locked'],
  [15, 'Component unlocked'],
  [17, 'Changes committed'],
  [18, 'Changes pushed'],
  [19, 'Repository reset'],
  [20, 'Repository merged'],
  [21, 'Repository rebased'],
  [22, 'Repository merge failed'],
  [23, 'Repository rebase failed'],
  [24, 'Parsing failed'],
  [25, 'Translation removed'],
  [26, 'Suggestion removed'],
  [27, 'Translation replaced'],
  [28, 'Repository push failed'],
  [29, 'Suggestion removed during cleanup'],
  [30, 'Source string changed'],
  [31, 'String added'],
  [32, 'Bulk status changed'],
  [33, 'Visibility changed'],
  [34, 'User added'],
  [35, 'User removed'],
  [36, 'Translation approved'],
  [37, 'Marked for edit'],
  [38, 'Component removed'],
  [39, 'Project removed'],
  [41, 'Project renamed'],
  [42, 'Component renamed'],
  [43, 'Moved component'],
  [45, 'Contributor joined'],
  [46, 'Announcement posted'],
  [47, 'Alert triggered'],
  [48, 'Language added'],
  [49, 'Language requested'],
  [50, 'Project created'],
  [51, 'Component created'],
  [52, 'User invited'],
  [53, 'Repository notification received'],
  [54, 'Translation replaced file by upload'],
  [55, 'License changed'],
  [56, 'Contributor license agreement changed'],
  [57, 'Screenshot added'],
  [58, 'Screenshot uploaded'],
  [59, 'String updated in the repository'],
  [60, 'Add-on installed'],
  [61, 'Add-on configuration changed'],
  [62, 'Add-on uninstalled'],
  [63, 'String removed'],
  [64, 'Comment removed'],
  [65, 'Comment resolved'],
  [66, 'Explanation updated'],
  [67, 'Category removed'],
  [68, 'Category renamed'],
  [69, 'Category moved'],
  [70, 'Saving string failed'],
  [71, 'String added in the repository'],
  [72, 'String updated in the upload'],
  [73, 'String added in the upload'],
  [74, 'Translation updated by source upload'],
  [75, 'Component translation completed'],
  [76, 'Applied enforced check'],
  [77, 'Propagated change'],
  [78, 'File uploaded'],
  [79, 'Extra flags updated'],
  [80, 'Font uploaded'],
  [81, 'Font changed'],
  [82, 'Font removed'],
  [83, 'Forced synchronization of translations'],
  [84, 'Forced rescan of translations'],
  [85, 'Screenshot removed'],
  [86, 'Label added'],
  [87, 'Label removed'],
  [88, 'Repository cleanup'],
  [89, 'Source string added in the upload'],
  [90, 'Source string added in the repository'],
  [91, 'Project backed up'],
  [92, 'Project restored'],
  [93, 'Component restored'],
  [94, 'User edit reverted'],
  [95, 'Project setting changed'],
  [96, 'Component setting changed'],
  [97, 'User access changed'],
  [98, 'Workspace created'],
  [99, 'Workspace setting changed'],
  [100, 'Project moved'],
  [101, 'Remote repository updated'],
  [102, 'Remote repository update failed'],
  [103, 'Alert dismissed'],
  [104, 'Alert reopened'],
];

/** Columns shared by both statistics tables: every count, _words, _chars and _percent field. */
const STATISTICS_COLUMNS = sql.raw(`
  total integer, total_words integer, total_chars integer,
  translated integer, translated_words integer, translated_chars integer,
  translated_percent numeric, translated_words_percent numeric, translated_chars_percent numeric,
  fuzzy integer, fuzzy_words integer, fuzzy_chars integer,
  fuzzy_percent numeric, fuzzy_words_percent numeric, fuzzy_chars_percent numeric,
  approved integer, approved_words integer, approved_chars integer,
  approved_percent numeric, approved_words_percent numeric, approved_chars_percent numeric,
  readonly integer, readonly_words integer, readonly_chars integer,
  readonly_percent numeric, readonly_words_percent numeric, readonly_chars_percent numeric,
  failing integer, failing_percent numeric,
  suggestions integer, comments integer, recent_changes integer,
  last_change timestamptz, name text, url text,
`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create schema if not exists weblate`.execute(db);

  await sql`
    create table weblate.sync_runs (
      id integer generated always as identity primary key,
      kind text not null default 'full',
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
      weblate_url text not null,
      requests integer not null default 0,
      rows_written bigint not null default 0,
      error text,
      summary jsonb not null default '{}'::jsonb
    )`.execute(db);

  await sql`
    create table weblate.unit_states (
      state smallint primary key,
      name text not null
    )`.execute(db);
  await sql`insert into weblate.unit_states (state, name)
    select * from unnest(${STATES.map((s) => s[0])}::smallint[], ${STATES.map((s) => s[1])}::text[])`.execute(
    db,
  );

  await sql`
    create table weblate.change_actions (
      action integer primary key,
      name text not null,
      api_name text,
      first_seen_at timestamptz,
      last_seen_at timestamptz
    )`.execute(db);
  await sql`insert into weblate.change_actions (action, name)
    select * from unnest(${ACTIONS.map((a) => a[0])}::integer[], ${ACTIONS.map((a) => a[1])}::text[])`.execute(
    db,
  );

  await sql`
    create table weblate.languages (
      code text primary key,
      id integer not null unique,
      name text not null,
      direction text,
      population bigint,
      aliases text[],
      plural_id integer,
      plural_source integer,
      plural_number integer,
      plural_formula text,
      plural_type integer,
      web_url text,
      url text,
      statistics_url text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table weblate.projects (
      id integer primary key,
      slug text not null unique,
      name text not null,
      web text,
      web_url text,
      url text,
      components_list_url text,
      repository_url text,
      statistics_url text,
      categories_url text,
      changes_list_url text,
      languages_url text,
      labels_url text,
      translation_review boolean,
      source_review boolean,
      set_language_team boolean,
      instructions text,
      enable_hooks boolean,
      language_aliases text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table weblate.components (
      id integer primary key,
      project_id integer not null references weblate.projects (id),
      project_slug text not null,
      slug text not null,
      name text not null,
      source_language_code text,
      vcs text, repo text, git_export text, branch text, push_branch text,
      filemask text, screenshot_filemask text, template text, edit_template boolean,
      intermediate text, new_base text, file_format text,
      license text, license_url text, agreement text,
      web_url text, url text, repository_url text, translations_url text, statistics_url text,
      lock_url text, links_url text, changes_list_url text, task_url text,
      new_lang text, language_code_style text, push text, check_flags text,
      priority integer, enforced_checks text[], restricted boolean, repoweb text,
      report_source_bugs text, merge_style text,
      commit_message text, add_message text, delete_message text, merge_message text,
      addon_message text, pull_message text,
      allow_translation_propagation boolean, manage_units boolean, enable_suggestions boolean,
      suggestion_voting boolean, suggestion_autoaccept integer, push_on_commit boolean,
      commit_pending_age integer, auto_lock_error boolean,
      language_regex text, variant_regex text,
      addons jsonb, is_glossary boolean, glossary_color text,
      category text, linked_component text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_slug, slug)
    )`.execute(db);
  await sql`create index components_project_id_idx on weblate.components (project_id)`.execute(db);

  await sql`
    create table weblate.translations (
      id integer primary key,
      component_id integer not null references weblate.components (id),
      project_slug text not null,
      component_slug text not null,
      language_code text not null,
      language_id integer,
      filename text,
      revision text,
      web_url text, share_url text, translate_url text, url text,
      is_template boolean,
      is_source boolean,
      total integer, total_words integer,
      translated integer, translated_words integer, translated_percent numeric,
      fuzzy integer, fuzzy_words integer, fuzzy_percent numeric,
      failing_checks integer, failing_checks_words integer, failing_checks_percent numeric,
      have_suggestion integer,
      have_comment integer,
      last_change timestamptz,
      last_author text,
      repository_url text, file_url text, statistics_url text, changes_list_url text,
      units_list_url text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_slug, component_slug, language_code)
    )`.execute(db);
  await sql`create index translations_component_id_idx on weblate.translations (component_id)`.execute(
    db,
  );
  await sql`create index translations_language_code_idx on weblate.translations (language_code)`.execute(
    db,
  );

  await sql`
    create table weblate.units (
      id bigint primary key,
      translation_id integer not null references weblate.translations (id),
      source text[] not null,
      previous_source text,
      target text[] not null,
      id_hash bigint not null,
      content_hash bigint not null,
      location text, context text, note text, flags text, explanation text, extra_flags text,
      labels jsonb,
      state smallint not null,
      fuzzy boolean, translated boolean, approved boolean,
      position integer,
      has_suggestion boolean, has_comment boolean, has_failing_check boolean,
      num_words integer,
      source_unit_id bigint,
      priority integer,
      web_url text, url text,
      pending boolean,
      timestamp timestamptz,
      last_updated timestamptz,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index units_translation_id_idx on weblate.units (translation_id)`.execute(db);
  await sql`create index units_id_hash_idx on weblate.units (id_hash)`.execute(db);

  await sql`
    create table weblate.changes (
      id bigint primary key,
      action integer not null,
      action_name text,
      unit_id bigint,
      translation_id integer,
      component_id integer,
      project_slug text not null,
      component_slug text,
      language_code text,
      user_name text,
      author_name text,
      target text,
      old text,
      details jsonb,
      timestamp timestamptz not null,
      url text,
      unit_url text, translation_url text, component_url text,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index changes_timestamp_idx on weblate.changes (timestamp desc)`.execute(db);
  await sql`create index changes_translation_id_idx on weblate.changes (translation_id, timestamp desc)`.execute(
    db,
  );
  await sql`create index changes_unit_id_idx on weblate.changes (unit_id)`.execute(db);
  await sql`create index changes_project_slug_idx on weblate.changes (project_slug, timestamp desc)`.execute(
    db,
  );

  await sql`
    create table weblate.translation_statistics (
      translation_id integer not null,
      captured_at timestamptz not null,
      last_seen_at timestamptz not null,
      run_id integer references weblate.sync_runs (id),
      project_slug text not null,
      component_slug text not null,
      language_code text not null,
      ${STATISTICS_COLUMNS}
      code text,
      translate_url text,
      raw jsonb not null,
      primary key (translation_id, captured_at)
    )`.execute(db);
  await sql`create index translation_statistics_language_idx on weblate.translation_statistics (language_code, captured_at)`.execute(
    db,
  );

  await sql`
    create table weblate.language_statistics (
      language_code text not null,
      captured_at timestamptz not null,
      last_seen_at timestamptz not null,
      run_id integer references weblate.sync_runs (id),
      ${STATISTICS_COLUMNS}
      raw jsonb not null,
      primary key (language_code, captured_at)
    )`.execute(db);

  await sql`
    create table weblate.notification_subscriptions (
      id integer primary key,
      username text not null,
      notification text not null,
      scope integer not null,
      frequency integer not null,
      project text,
      component text,
      project_id integer,
      component_id integer,
      raw jsonb not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index notification_subscriptions_username_idx on weblate.notification_subscriptions (username)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'notification_subscriptions',
    'language_statistics',
    'translation_statistics',
    'changes',
    'units',
    'translations',
    'components',
    'projects',
    'languages',
    'change_actions',
    'unit_states',
    'sync_runs',
  ]) {
    await sql`drop table if exists ${sql.table(`weblate.${table}`)}`.execute(db);
  }
}
