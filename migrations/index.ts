import type { Migration } from 'kysely';

import * as m0001 from './0001_create_weblate_schema.ts';
import * as m0002 from './0002_add_incremental_state.ts';
import * as m0003 from './0003_add_reporting_views.ts';
import * as m0004 from './0004_allow_interrupted_runs.ts';
import * as m0005 from './0005_add_progress_functions.ts';
import * as m0006 from './0006_discover_from_changes.ts';
import * as m0007 from './0007_add_estimated_history.ts';
import * as m0008 from './0008_add_automatically_translated.ts';
import * as m0009 from './0009_carry_deletions.ts';
import * as m0010 from './0010_add_answer_views.ts';
import * as m0011 from './0011_mirror_categories_labels.ts';
import * as m0012 from './0012_add_category_label_progress.ts';
import * as m0013 from './0013_mirror_users.ts';
import * as m0014 from './0014_progress_spans.ts';
import * as m0015 from './0015_one_history.ts';
import * as m0016 from './0016_record_instance.ts';
import * as m0017 from './0017_people_and_freshness.ts';
import * as m0018 from './0018_translator_work_and_cost.ts';
import * as m0019 from './0019_add_post_edits.ts';
import * as m0020 from './0020_time_in_state.ts';
import * as m0021 from './0021_faster_cost_estimate.ts';
import * as m0022 from './0022_watch_alerts.ts';

/**
 * Every migration, by name, in the order they apply. Imported statically rather than found
 * by listing this folder, so that the CLI bundle (scripts/bundle-cli.ts) carries them and
 * loads one copy of Kysely. A new migration is a new file here and a line below;
 * test/db/migrations.test.ts checks that every file of the folder is applied.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_create_weblate_schema': m0001,
  '0002_add_incremental_state': m0002,
  '0003_add_reporting_views': m0003,
  '0004_allow_interrupted_runs': m0004,
  '0005_add_progress_functions': m0005,
  '0006_discover_from_changes': m0006,
  '0007_add_estimated_history': m0007,
  '0008_add_automatically_translated': m0008,
  '0009_carry_deletions': m0009,
  '0010_add_answer_views': m0010,
  '0011_mirror_categories_labels': m0011,
  '0012_add_category_label_progress': m0012,
  '0013_mirror_users': m0013,
  '0014_progress_spans': m0014,
  '0015_one_history': m0015,
  '0016_record_instance': m0016,
  '0017_people_and_freshness': m0017,
  '0018_translator_work_and_cost': m0018,
  '0019_add_post_edits': m0019,
  '0020_time_in_state': m0020,
  '0021_faster_cost_estimate': m0021,
  '0022_watch_alerts': m0022,
};
