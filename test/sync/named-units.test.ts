import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import { parseJsonLossless } from '../../src/lib/json.ts';
import { startRewritingProxy } from '../helpers/proxy.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { servedAt, syncSimulator } from '../helpers/sync.ts';

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

interface Outcome {
  unitId: number;
  /** Reasons of the records the sync rejected. */
  rejected: string[];
  /** Whether the mirror marked the named unit deleted. */
  deleted: boolean;
  /** Paths of the requests the sync made. */
  paths: string[];
}

/**
 * Names a unit by a new change (a comment names its unit without moving the unit's
 * last_changed), then runs an incremental sync through a proxy that passes that unit's record
 * in the read by id through `rewrite`; the sync must succeed.
 */
async function syncNamedUnitRewritten(rewrite: (record: string) => string): Promise<Outcome> {
  const translation = mirror.sim.instance.translations.find((t) => !t.isSource)!;
  const [changeId] = mirror.sim.mutate.addChanges(translation.id, 1).changeIds;
  const unitId = mirror.sim.instance.index.changeById.get(changeId!)!.unitId!;
  const paths: string[] = [];
  const proxy = await startRewritingProxy(mirror.sim.url, (path, body) => {
    paths.push(path);
    if (!READ_BY_ID.test(path)) return body;
    const text = (parseJsonLossless(body).resultTexts ?? []).find((t) =>
      t.includes(`"id":${unitId},`),
    );
    return text === undefined ? body : body.replace(text, rewrite(text));
  });
  try {
    await servedAt(mirror.handle, proxy.url);
    const result = await syncSimulator(mirror.sim, mirror.handle, {
      client: { baseUrl: new URL(proxy.url) },
    });
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);
    const rejected = await sql<{ reason: string }>`
      select reason from weblate.rejected_records where run_id = ${result.runId}`.execute(
      mirror.handle.db,
    );
    const unit = await sql<{ deleted: boolean }>`
      select deleted_at is not null as deleted from weblate.units where id = ${unitId}`.execute(
      mirror.handle.db,
    );
    return {
      unitId,
      rejected: rejected.rows.map((r) => r.reason),
      deleted: unit.rows[0]!.deleted,
      paths,
    };
  } finally {
    await servedAt(mirror.handle, mirror.sim.url);
    await proxy.close();
  }
}

describe('units a change names', () => {
  it('are read by id; one the server lists but the mirror rejects is not marked deleted', async () => {
    const outcome = await syncNamedUnitRewritten((record) =>
      record.replace(/"state":\d+/, '"state":"translated"'),
    );
    expect(outcome.paths.filter((p) => READ_BY_ID.test(p))).toHaveLength(1);
    // Not marked deleted even for a moment: no unit count fell short, so no sweep was needed.
    expect(outcome.paths.filter((p) => /^\/api\/translations\/.*\/units\//.test(p))).toEqual([]);
    expect(outcome.rejected).toEqual([
      expect.stringContaining(`(id ${outcome.unitId}): field "state"`),
    ]);
    expect(outcome.deleted).toBe(false);
  });

  it('are not marked deleted when the read by id shows a record without an id (it could be any of them)', async () => {
    const outcome = await syncNamedUnitRewritten(() => 'null');
    expect(outcome.rejected).toEqual([
      expect.stringMatching(/^record \d+ of .*\/api\/units\/\?q=id%3A/),
    ]);
    expect(outcome.deleted).toBe(false);
  });
});
