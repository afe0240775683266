import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { createDb } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { readSchemaSnapshot } from '../src/db/schema-snapshot.ts';

// Writes schema/ from a fresh migrate of an empty embedded database: the committed
// definition of every table, view and function, which test/db/schema-snapshot.test.ts checks
// on both databases. Always the embedded one (PostgreSQL 18), whose view texts are the
// exact ones; PostgreSQL before 16 prints them with more column qualifiers.

const root = join(import.meta.dirname, '..', 'schema');
const dataDir = mkdtempSync(join(tmpdir(), 'weblate-mirror-schema-'));
const handle = await createDb({ databaseUrl: null, dataDir });
try {
  await migrateToLatest(handle);
  const snapshot = await readSchemaSnapshot(handle.db);
  for (const folder of ['tables', 'views', 'functions'])
    rmSync(join(root, folder), { recursive: true, force: true });
  for (const [path, text] of snapshot) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const counts = ['tables', 'views', 'functions'].map(
    (f) => `${readdirSync(join(root, f)).length} ${f}`,
  );
  process.stdout.write(`schema/ written: ${counts.join(', ')}\n`);
} finally {
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}
