import { afterEach, describe, expect, it } from 'vitest';

import { TransformError } from '../../src/errors.ts';
import type { SyncContext } from '../../src/sync/context.ts';
import { readPages } from '../../src/sync/read.ts';
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
  try {
    for await (const { items } of readPages(ctx, 'units/', {
      resource: 'units',
      schema: weblateUnit,
      pageSize: 2,
    })) {
      ids.push(...items.map((i) => i.record.id));
    }
    return { ids, tally: ctx.tally };
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

  it('names the record, its id and the field when a record is mistyped', async () => {
    const error = (await readAll([`${unit(1)}, ${unit(2, ', "state": "translated"')}`]).catch(
      (err: unknown) => err,
    )) as Error;
    expect(error).toBeInstanceOf(TransformError);
    expect(error.message).toMatch(
      /^units: record 2 of http:\/\/127\.0\.0\.1:\d+\/api\/units\/\?page_size=2 \(id 2\): field "state": .*expected number, received string$/,
    );
  });

  it('refuses text PostgreSQL cannot store (NUL) with a clear message', async () => {
    const error = (await readAll([unit(7, ', "note": "bad \\u0000 byte"')]).catch(
      (err: unknown) => err,
    )) as Error;
    expect(error.message).toMatch(
      /^units: record 1 of .* \(id 7\): contains a NUL character \(U\+0000\), which PostgreSQL cannot store$/,
    );
    // An escaped backslash followed by "u0000" is ordinary text.
    const { ids } = await readAll([unit(8, ', "note": "C:\\\\u0000"')]);
    expect(ids).toEqual(['8']);
  });
});
