import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

import {
  DBT_DOCS_COMMAND,
  dbtDocFiles,
  functionColumns,
  martColumnDescription,
  MARTS,
  schemaDocSections,
  STAGED_TABLES,
} from '../../scripts/dbt-docs.ts';

const ROOT = new URL('../../', import.meta.url);

describe("the dbt package's model YAML", () => {
  it.each(Object.keys(dbtDocFiles()))(
    `%s is what ${DBT_DOCS_COMMAND} writes (run it when not)`,
    async (relative) => {
      const path = fileURLToPath(new URL(relative, ROOT));
      const options = await resolveConfig(path);
      const written = await format(dbtDocFiles()[relative]!, { ...options, filepath: path });
      expect(readFileSync(path, 'utf8'), `run \`${DBT_DOCS_COMMAND}\``).toBe(written);
    },
  );

  it('describes every column of every mart', () => {
    const docs = schemaDocSections();
    const undescribed = MARTS.flatMap((spec) =>
      functionColumns(spec.fn)
        .filter((c) => martColumnDescription(spec.fn, c.name, docs.get(spec.docs)) === null)
        .map((c) => `${spec.model}.${c.name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('takes a figure from the metric catalogue by the name its function gives it', () => {
    const docs = schemaDocSections();
    // content_changes is the catalogue's credited_changes (source `weblate.contributions (content_changes)`).
    expect(
      martColumnDescription('contributions', 'content_changes', docs.get('contributions')),
    ).toMatch(
      /^Changes credited to the person as Weblate's credits report counts them.*metric credited_changes/,
    );
    expect(martColumnDescription('release_readiness', 'words_needed', undefined)).toMatch(
      /^Translated words still missing to reach the threshold/,
    );
  });

  it('has a staging model, with its SQL, for each staged table', () => {
    for (const [table] of STAGED_TABLES) {
      const sqlFile = new URL(`dbt/models/staging/stg_weblate__${table}.sql`, ROOT);
      expect(readFileSync(sqlFile, 'utf8'), table).toContain(`ref('base_weblate__${table}')`);
    }
  });
});
