import type { z } from 'zod';

import type { RawJson } from '../../src/db/database.ts';
import { parseJsonLossless } from '../../src/lib/json.ts';

/** A validated record and its raw text, as the read stage produces them. */
export function item<R>(schema: z.ZodType<R, unknown>, text: string): { record: R; raw: RawJson } {
  return { record: schema.parse(parseJsonLossless(text).value), raw: text as RawJson };
}
