// Writes the dbt package's model YAML from schema/, docs/schema.md and the metric catalogue
// (npm run dbt:docs).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';

import { dbtDocFiles } from './dbt-docs.ts';

for (const [relative, text] of Object.entries(dbtDocFiles())) {
  const path = fileURLToPath(new URL(`../${relative}`, import.meta.url));
  const options = await resolveConfig(path);
  writeFileSync(path, await format(text, { ...options, filepath: path }));
}
