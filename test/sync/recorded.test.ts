import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { countRows } from '../../src/db/queries/status.ts';
import { parseJsonLossless } from '../../src/lib/json.ts';
import type { WeblateClient } from '../../src/weblate/client.ts';
import {
  describeIssues,
  weblateChange,
  weblateComponent,
  weblateStatistics,
  weblateTranslation,
  weblateUnit,
} from '../../src/weblate/schemas.ts';
import { createTestClient, readList } from '../helpers/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { RECORDED_DIR, startRecordedServer } from '../helpers/recorded-server.ts';
import type { ScriptedServer } from '../helpers/scripted-server.ts';
import { syncAsWriter } from '../helpers/sync.ts';

let database: TestDatabase;
let handle: DbHandle;
let server: ScriptedServer;

function clientFor(url: string, maxAttempts = 2): WeblateClient {
  return createTestClient(url, { token: 'KEY', maxAttempts, timeoutMs: 5000, retryCapMs: 5 });
}

async function walkAll(client: WeblateClient, path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const page of readList(client, path, { resource: 'recorded', pageSize: 1000 }))
    items.push(...page.results);
  return items;
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  server = await startRecordedServer();
});

afterAll(async () => {
  await server.close();
  await database.drop();
});

describe('recorded responses of an older Weblate', () => {
  it('stop the run at the first list whose records carry no id, naming Weblate 5.0.1, leaving no partial rows', async () => {
    const result = await syncAsWriter(handle, {
      log: captureLogger().log,
      scope: { projects: null, users: [] },
      client: () => clientFor(server.url),
    });
    // Older servers send no `id`; the mirror keys every table on Weblate's ids.
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(
      /^languages: the records of http:\/\/127\.0\.0\.1:\d+\/api\/languages\/\?page_size=1000 carry no id\. The server looks older than Weblate 5\.0\.1, which weblate-mirror needs: before it, languages, projects, components and translations carry no id/,
    );
    const counts = await countRows(handle.db);
    for (const table of ['languages', 'projects', 'components', 'translations', 'units', 'changes'])
      expect(counts[table]).toBe(0);
    const run = await sql<{
      status: string;
      rejected: number;
      error: string;
    }>`select status, rejected, error from weblate.sync_runs where id = ${result.runId}`.execute(
      handle.db,
    );
    expect(run.rows[0]).toEqual({ status: 'failed', rejected: 0, error: result.error!.message });
  });

  it('are walked page by page through their next links', async () => {
    const client = clientFor(server.url);
    const languages = await walkAll(client, 'languages/');
    expect(languages).toHaveLength(47);
    const translations = (await walkAll(client, 'translations/')) as Array<{ url: string }>;
    expect(new Set(translations.map((t) => t.url)).size).toBe(50);
    expect(await walkAll(client, 'components/hello/weblate/translations/')).toHaveLength(33);
    expect(await walkAll(client, 'components/hello/weblate/statistics/')).toHaveLength(33);
    expect(server.requests.some((r) => r.url.includes('page=3'))).toBe(true);
    await client.close();
  });

  it('report the truncated unit list as a broken body, naming the URL', async () => {
    const client = clientFor(server.url, 2);
    const error = (await walkAll(client, 'translations/hello/android/en/units/').catch(
      (err: unknown) => err,
    )) as Error;
    expect(error.message).toMatch(
      /^recorded: GET http:\/\/127\.0\.0\.1:\d+\/api\/translations\/hello\/android\/en\/units\/\?page_size=1000 failed after 2 attempts: answered a body that is not valid JSON/,
    );
    await client.close();
  });

  it('stop the walk when that list, repaired, points its next link at itself', async () => {
    const truncated = readFileSync(
      join(RECORDED_DIR, 'translations-hello-android-en-units'),
      'utf8',
    );
    const repaired = truncated.trimEnd().replace(/}\s*$/, ']}');
    const repairedServer = await startRecordedServer({
      'translations-hello-android-en-units': repaired,
    });
    const client = clientFor(repairedServer.url);
    const error = (await walkAll(client, 'translations/hello/android/en/units/').catch(
      (err: unknown) => err,
    )) as Error;
    expect(error.message).toMatch(
      /next link of .* leads back to .*units\/, a page already read; stopping instead of looping/,
    );
    expect(repairedServer.requests).toHaveLength(2);
    await client.close();
    await repairedServer.close();
  });

  it('explain per record what an older shape lacks', () => {
    const read = (name: string) =>
      parseJsonLossless(readFileSync(join(RECORDED_DIR, name), 'utf8')).value as Record<
        string,
        unknown
      >;
    const first = (name: string) => (read(name).results as unknown[])[0];
    const problems = {
      component: weblateComponent.safeParse(first('projects-hello-components')),
      translation: weblateTranslation.safeParse(read('translations-hello-weblate-cs')),
      unit: weblateUnit.safeParse(first('translations-hello-weblate-cs-units')),
      change: weblateChange.safeParse(
        (read('translations-hello-weblate-cs-changes').results as unknown[])[1],
      ),
      statistics: weblateStatistics.safeParse(read('translations-hello-weblate-cs-statistics')),
    };
    const described = Object.fromEntries(
      Object.entries(problems).map(([name, parsed]) => [
        name,
        parsed.success ? 'ok' : describeIssues(parsed.error),
      ]),
    );
    expect(described.component).toMatch(/field "id"/);
    expect(described.translation).toMatch(
      /field "id".*field "last_change": expected an ISO 8601 timestamp with a UTC offset/,
    );
    expect(described.unit).toMatch(/field "source": .*expected array/);
    expect(described.change).toMatch(/field "user": expected a user URL or null/);
    expect(described.statistics).toMatch(
      /field "last_change": expected an ISO 8601 timestamp with a UTC offset/,
    );
    // The newer-shape global unit list is complete enough to mirror.
    expect(weblateUnit.safeParse(first('units')).success).toBe(true);
  });
});
