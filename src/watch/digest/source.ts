import type { Kysely } from 'kysely';

import type { Database } from '../../db/database.ts';
import type { DigestSource } from '../outbox.ts';
import { buildDigest } from './build.ts';
import { digestPeriod } from './period.ts';
import { renderDigest } from './render.ts';
import { resolveDigestScope } from './scope.ts';

/** The worker's digests: the rules file's scope resolved as `digest` resolves its flags. */
export function digestSourceOf(db: Kysely<Database>): DigestSource {
  return {
    period: (every, now) => digestPeriod(every, now),
    async build(spec, period) {
      const scope = await resolveDigestScope(db, spec.scope);
      return renderDigest(await buildDigest(db, { every: spec.every, period, scope }));
    },
  };
}
