import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import { parseJsonLossless } from '../../src/lib/json.ts';
import { startRewritingProxy } from '../helpers/proxy.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({
  seed: 81,
  projects: 1,
  components: 2,
  languages: 2,
  units: 200,
  changes: 60,
  users: 1,
});

beforeAll(async () => {
  const first = await syncSimulator(mirror.sim, mirror.handle);
  expect([first.status, first.summary.rejected]).toEqual(['succeeded', 0]);
});

/** The ids in a read of units by id (`q=id:1,2,…`), the only unit request that names ids. */
const READ_BY_ID = /^\/api\/units\/\?q=id%3A\d/;

describe('units a change names', () => {
  it('are read by id; one the server lists but the mirror rejects is not marked deleted', async () => {
    // A comment names its unit without moving the unit's last_changed.
    const translation = mirror.sim.instance.translations.find((t) => !t.isSource)!;
    const [changeId] = mirror.sim.mutate.addChanges(translation.id, 1).changeIds;
    const unitId = mirror.sim.instance.index.changeById.get(changeId!)!.unitId!;
    let readsById = 0;
    let sweeps = 0;
    const proxy = await startRewritingProxy(mirror.sim.url, (path, body) => {
      if (/^\/api\/translations\/.*\/units\//.test(path)) sweeps += 1;
      if (!READ_BY_ID.test(path)) return body;
      readsById += 1;
      const text = (parseJsonLossless(body).resultTexts ?? []).find((t) =>
        t.includes(`"id":${unitId},`),
      );
      return text === undefined
        ? body
        : body.replace(text, text.replace(/"state":\d+/, '"state":"translated"'));
    });
    try {
      const result = await syncSimulator(mirror.sim, mirror.handle, {
        client: { baseUrl: new URL(proxy.url) },
      });
      expect([result.mode, result.status, result.error]).toEqual([
        'incremental',
        'succeeded',
        null,
      ]);
      expect(readsById).toBe(1);
      // Not marked deleted even for a moment: no unit count fell short, so no sweep was needed.
      expect(sweeps).toBe(0);
      const rejected = await sql<{ reason: string }>`
        select reason from weblate.rejected_records where run_id = ${result.runId}`.execute(
        mirror.handle.db,
      );
      expect(rejected.rows.map((r) => r.reason)).toEqual([
        expect.stringContaining(`(id ${unitId}): field "state"`),
      ]);
      const unit = await sql<{ deleted: boolean }>`
        select deleted_at is not null as deleted from weblate.units where id = ${unitId}`.execute(
        mirror.handle.db,
      );
      expect(unit.rows).toEqual([{ deleted: false }]);
    } finally {
      await proxy.close();
    }
  });

  it('are not marked deleted when the read by id shows a record without an id (it could be any of them)', async () => {
    const translation = mirror.sim.instance.translations.find((t) => !t.isSource)!;
    const [changeId] = mirror.sim.mutate.addChanges(translation.id, 1).changeIds;
    const unitId = mirror.sim.instance.index.changeById.get(changeId!)!.unitId!;
    const proxy = await startRewritingProxy(mirror.sim.url, (path, body) => {
      if (!READ_BY_ID.test(path)) return body;
      const text = (parseJsonLossless(body).resultTexts ?? []).find((t) =>
        t.includes(`"id":${unitId},`),
      );
      return text === undefined ? body : body.replace(text, 'null');
    });
    try {
      const result = await syncSimulator(mirror.sim, mirror.handle, {
        client: { baseUrl: new URL(proxy.url) },
      });
      expect([result.mode, result.status, result.error]).toEqual([
        'incremental',
        'succeeded',
        null,
      ]);
      const rejected = await sql<{ reason: string }>`
        select reason from weblate.rejected_records where run_id = ${result.runId}`.execute(
        mirror.handle.db,
      );
      expect(rejected.rows.map((r) => r.reason)).toEqual([
        expect.stringMatching(/^record \d+ of .*\/api\/units\/\?q=id%3A/),
      ]);
      const unit = await sql<{ deleted: boolean }>`
        select deleted_at is not null as deleted from weblate.units where id = ${unitId}`.execute(
        mirror.handle.db,
      );
      expect(unit.rows).toEqual([{ deleted: false }]);
    } finally {
      await proxy.close();
    }
  });
});
