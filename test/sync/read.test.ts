import { afterEach, describe, expect, it } from 'vitest';

import type { Rejection } from '../../src/db/queries/rejections.ts';
import type { SyncContext } from '../../src/sync/context.ts';
import { readPages } from '../../src/sync/read.ts';
import { listRead } from '../../src/sync/reads.ts';
import { SyncTally } from '../../src/sync/tally.ts';
import { weblateUnit } from '../../src/weblate/schemas.ts';
import { createTestClient } from '../helpers/client.ts';
import { captureLogger } from '../helpers/logs.ts';
import { type ScriptedServer, sendJson, startScriptedServer } from '../helpers/scripted-server.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const unit = (id: number, extra = '') =>
  `{"id": ${id}, "translation": "http://x/api/translations/p/c/cs/", "source": ["a"], "target": ["b"], "id_hash": 1, "content_hash": 1, "state": 20${extra}}`;

async function readAll(pages: string[]) {
  const server = await startScriptedServer((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    const next = page < pages.length ? `${server.url}api/units/?page=${page + 1}` : null;
    sendJson(
      res,
      200,
      `{"count": 3, "next": ${JSON.stringify(next)}, "previous": null, "results": [${pages[page - 1]!}]}`,
    );
  });
  servers.push(server);
  const client = createTestClient(server.url);
  const ctx = {
    client,
    tally: new SyncTally(),
    signal: new AbortController().signal,
    log: captureLogger().log,
  } as unknown as SyncContext;
  const ids: string[] = [];
  const rejected: Rejection[] = [];
  try {
    const spec = { resource: 'units', schema: weblateUnit } as const;
    for await (const page of readPages(ctx, listRead('units/', 2), spec)) {
      ids.push(...page.items.map((i) => i.record.id));
      rejected.push(...page.rejected);
    }
    return { ids, rejected, tally: ctx.tally };
  } finally {
    await client.close();
  }
}

describe('readPages', () => {
  it('yields validated records page by page and counts pages for progress', async () => {
    const { ids, tally } = await readAll([`${unit(1)}, ${unit(2)}`, unit(3)]);
    expect(ids).toEqual(['1', '2', '3']);
    expect([tally.pagesDone, tally.pagesKnown, tally.get('units').records]).toEqual([2, 2, 3]);
  });

  it('rejects a mistyped record, naming its position, id and field, and keeps the rest of the page', async () => {
    const { ids, rejected } = await readAll([
      `${unit(1)}, ${unit(2, ', "state": "translated"')}`,
      unit(3),
    ]);
    expect(ids).toEqual(['1', '3']);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toMatch(
      /^record 2 of http:\/\/127\.0\.0\.1:\d+\/api\/units\/\?page_size=2 \(id 2\): field "state": .*expected number, received string$/,
    );
    expect(rejected[0]!.raw).toBe(unit(2, ', "state": "translated"'));
  });

  it('rejects text PostgreSQL cannot store (NUL) with a clear reason', async () => {
    const { ids, rejected } = await readAll([unit(7, ', "note": "bad \\u0000 byte"')]);
    expect(ids).toEqual([]);
    expect(rejected[0]!.reason).toMatch(
      /^record 1 of .* \(id 7\): contains a NUL character \(U\+0000\), which PostgreSQL cannot store$/,
    );
    // An escaped backslash followed by "u0000" is ordinary text.
    expect((await readAll([unit(8, ', "note": "C:\\\\u0000"')])).ids).toEqual(['8']);
  });
});
