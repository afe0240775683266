import type { TestProject } from 'vitest/node';

import {
  buildTemplate,
  type DatabaseTemplate,
  dropTemplate,
  migrationsHash,
  sweepLeftovers,
} from '../helpers/database-template.ts';

/**
 * Global setup of both configurations: removes what dead test runs left behind, then
 * migrates the template every test file clones (test/helpers/database.ts), once per run, and
 * drops it after the run. In watch mode a rerun after a change to migrations/ gets a new one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? null;
  await sweepLeftovers(adminUrl);
  const templates: DatabaseTemplate[] = [await buildTemplate(adminUrl)];
  project.provide('databaseTemplate', templates[0]);
  project.onTestsRerun(async () => {
    if (templates.at(-1)!.hash === migrationsHash()) return;
    const template = await buildTemplate(adminUrl);
    templates.push(template);
    project.provide('databaseTemplate', template);
  });
  return async () => {
    for (const template of templates) await dropTemplate(adminUrl, template);
    // The databases and folders of this run's own files that failed to drop them.
    await sweepLeftovers(adminUrl);
  };
}
