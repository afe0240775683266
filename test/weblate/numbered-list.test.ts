import { afterEach, describe, expect, it } from 'vitest';

import { Listing } from '../../src/sync/listing.ts';
import type { Page } from '../../src/weblate/pages.ts';
import type { ListAt } from '../../src/weblate/pagination.ts';
import { createTestClient, readList } from '../helpers/client.ts';
import { type ScriptedServer, sendJson, startScriptedServer } from '../helpers/scripted-server.ts';

const servers: ScriptedServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

interface ListServer {
  server: ScriptedServer;
  /** Requests open at the same time, at most. */
  widest(): number;
}

/**
 * A list paginated as Django REST framework's page numbers do: `count` over the whole list
 * on every page, a page past the end answers 404, `next` and `previous` carry `page`. Each
 * answer waits `delayMs`; `beforeAnswer` may change the list first. With `cursor`, `next`
 * carries an opaque cursor and there is no `count`.
 */
async function serveList(
  items: number[],
  {
    delayMs = 20,
    beforeAnswer = () => undefined,
    cursor = false,
  }: { delayMs?: number; beforeAnswer?: (page: number) => void; cursor?: boolean } = {},
): Promise<ListServer> {
  let open = 0;
  let widest = 0;
  const server = await startScriptedServer((req, res) => {
    open++;
    widest = Math.max(widest, open);
    const url = new URL(req.url, 'http://127.0.0.1');
    const size = Math.min(Number(url.searchParams.get('page_size') ?? 50), 3);
    const page = Number(url.searchParams.get(cursor ? 'cursor' : 'page') ?? 1);
    setTimeout(() => {
      open--;
      beforeAnswer(page);
      const pages = Math.max(1, Math.ceil(items.length / size));
      if (page > pages) {
        sendJson(res, 404, {
          type: 'client_error',
          errors: [{ code: 'not_found', detail: 'Invalid page.', attr: null }],
        });
        return;
      }
      const link = (to: number) => {
        const next = new URL(url);
        next.searchParams.set(cursor ? 'cursor' : 'page', String(to));
        return `http://${req.headers.host}${next.pathname}${next.search}`;
      };
      sendJson(res, 200, {
        ...(cursor ? {} : { count: items.length }),
        next: page < pages ? link(page + 1) : null,
        previous: page > 1 ? link(page - 1) : null,
        results: items.slice((page - 1) * size, page * size).map((id) => ({ id })),
      });
    }, delayMs);
  });
  servers.push(server);
  return { server, widest: () => widest };
}

async function readAll(list: ListServer, concurrency = 4, textInHand = 1_000_000) {
  const client = createTestClient(list.server.url, { concurrency });
  const pages: Array<Page<ListAt>> = [];
  try {
    const walk = readList(client, 'things/', {
      resource: 'things',
      pageSize: 1000,
      sideBySide: { concurrency, textInHand },
    });
    for await (const page of walk) pages.push(page);
  } finally {
    await client.close();
  }
  const ids = pages.flatMap((p) => p.results.map((r) => (r as { id: number }).id));
  return { pages, ids };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('a numbered list read side by side', () => {
  it('asks the pages after the first by number, several at once, and yields each once', async () => {
    const list = await serveList(range(20));
    const { pages, ids } = await readAll(list);
    expect(ids.sort((a, b) => a - b)).toEqual(range(20));
    // 3 items a page (the server's largest): 7 pages, one request each.
    expect(list.server.requests).toHaveLength(7);
    expect(list.widest()).toBe(4);
    expect(pages.filter((p) => p.at.isLast)).toHaveLength(1);
    expect(pages.at(-1)?.at.isLast).toBe(true);
    expect(new Set(pages.map((p) => p.at.number))).toEqual(new Set(range(7)));
  });

  it('holds no more pages than its text allows, and never fewer than one', async () => {
    const list = await serveList(range(20));
    const { ids } = await readAll(list, 4, 1);
    expect(ids).toEqual(range(20));
    expect(list.widest()).toBe(1);
  });

  it('follows the links on when the list grew while it was read', async () => {
    const items = range(9);
    const list = await serveList(items, {
      beforeAnswer: (page) => page === 3 && items.push(10, 11, 12, 13),
    });
    const { pages, ids } = await readAll(list);
    expect(ids.sort((a, b) => a - b)).toEqual(range(13));
    expect(pages.filter((p) => p.at.isLast)).toHaveLength(1);
    expect(pages.at(-1)?.at.isLast).toBe(true);
    // The counts differ: a listing of it proves nothing missing.
    const listing = new Listing();
    for (const page of pages) listing.notePage(page.results, page.url, page.count);
    expect(listing.unproven).toMatch(/the list changed while it was read/);
  });

  it('ends at a page that answers 404 when the list shrank, and its count says so', async () => {
    const items = range(12);
    // Before any later page answers, the last three items go: page 4 is past the end.
    const list = await serveList(items, {
      beforeAnswer: (page) => page > 1 && items.length === 12 && items.splice(9),
    });
    const { pages, ids } = await readAll(list);
    expect(ids.sort((a, b) => a - b)).toEqual(range(9));
    const empty = pages.find((p) => p.results.length === 0);
    expect(empty?.count).toBe(9);
    const listing = new Listing();
    for (const page of pages) listing.notePage(page.results, page.url, page.count);
    expect(listing.unproven).toMatch(/counted 9 records where .* counted 12/);
  });

  it('walks a list without page numbers by its links alone, one page at a time', async () => {
    const list = await serveList(range(10), { cursor: true });
    const { pages, ids } = await readAll(list);
    expect(ids).toEqual(range(10));
    expect(list.widest()).toBe(1);
    expect(pages.map((p) => p.at.isLast)).toEqual([false, false, false, true]);
  });

  it('follows the link of a list that grew past one page since its count', async () => {
    // Page 1 counts 3 (one page of 3) but links a page 2: two items came while it was answered.
    const server = await startScriptedServer((req, res) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const next = `http://${req.headers.host}${url.pathname}?page=2&page_size=3`;
      if (url.searchParams.get('page') === '2')
        sendJson(res, 200, {
          count: 5,
          next: null,
          previous: null,
          results: [{ id: 4 }, { id: 5 }],
        });
      else
        sendJson(res, 200, {
          count: 3,
          next,
          previous: null,
          results: range(3).map((id) => ({ id })),
        });
    });
    servers.push(server);
    const { pages, ids } = await readAll({ server, widest: () => 1 });
    expect(ids).toEqual(range(5));
    expect(pages.map((p) => p.at.isLast)).toEqual([false, true]);
  });

  it('reads a list of one page with one request', async () => {
    const list = await serveList(range(2));
    const { pages } = await readAll(list);
    expect(list.server.requests).toHaveLength(1);
    expect(pages.map((p) => p.at.isLast)).toEqual([true]);
  });
});
