import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { type ScriptedServer, sendJson, startScriptedServer } from './scripted-server.ts';

/** The recorded responses of an older Weblate (see test/fixtures/weblate-recorded/README.md). */
export const RECORDED_DIR = fileURLToPath(
  new URL('../fixtures/weblate-recorded/api/', import.meta.url),
);
export const RECORDED_HOST = 'http://127.0.0.1:8000/';

/**
 * Serves the recordings the way their harness maps requests to files: `/api/a/b/` is file
 * `a-b`; a query string selects `a-b--GET--<query>`. `page_size` and `format` are dropped
 * first (the recordings were made without them), and links to the recording host are
 * rewritten to this server so that `next` stays on one origin. Unknown files are 404s.
 * `overrides` replaces the body of a file by name.
 */
export async function startRecordedServer(
  overrides: Record<string, string> = {},
): Promise<ScriptedServer> {
  const server: ScriptedServer = await startScriptedServer((req, res) => {
    const url = new URL(req.url, 'http://fixture/');
    url.searchParams.delete('page_size');
    url.searchParams.delete('format');
    const base = url.pathname
      .replace(/^\/api\//, '')
      .replace(/\/$/, '')
      .replaceAll('/', '-');
    const name = url.search === '' ? base : `${base}--GET--${url.search.slice(1)}`;
    if (name === 'projects-acl' && req.headers.authorization !== 'Token KEY') {
      res.writeHead(403).end();
      return;
    }
    const path = join(RECORDED_DIR, name);
    const body =
      overrides[name] ??
      (existsSync(path) && !name.includes('/') ? readFileSync(path, 'utf8') : null);
    if (body === null) {
      sendJson(res, 404, { detail: 'Not found.' });
      return;
    }
    sendJson(res, 200, body.replaceAll(RECORDED_HOST, server.url));
  });
  return server;
}
