import { HttpError } from '../errors.ts';
import type { WeblateClient } from './client.ts';

/** What the server's global unit list can do, learned by probeUnitList. */
export interface UnitListCapabilities {
  /** /api/units/ exists (older servers answer 404). */
  hasGlobalList: boolean;
  /** `q` with `id:` terms works there; null when unknown (no global list). */
  hasIdSearch: boolean | null;
  /** `last_changed:` works in `q` (Weblate 5.14 and later). */
  hasLastChangedSearch: boolean;
  /** What the server answered, in words, for the log. */
  evidence: string;
}

/** Probe requests count as requests for units in stats and logs. */
export const UNIT_PROBE_RESOURCE = 'units';

/**
 * Every `q` makes Weblate add DISTINCT and COUNT over what matches, and `last_updated`
 * (what `last_changed` searches) has no index: the primary-key bound keeps the probe an
 * index lookup that matches nothing, however large the instance.
 */
const PROBE_WITH_LAST_CHANGED = 'id:<=0 AND last_changed:>=2000-01-01T00:00:00Z';
const PROBE_IDS_ONLY = 'id:<=0';

/**
 * Learns with one cheap request (two when the first is refused) whether /api/units/
 * exists and which searches it takes: 200 means both `id:` and `last_changed:` work;
 * 400 on `q` means an older search language, so the probe is asked once more without
 * `last_changed` to learn whether `id:` works; 404 means no global list. Other failures
 * are thrown, as for any request.
 */
export async function probeUnitList(
  client: WeblateClient,
  signal?: AbortSignal,
): Promise<UnitListCapabilities> {
  const full = await ask(client, PROBE_WITH_LAST_CHANGED, signal);
  if (full === 'ok') {
    return {
      hasGlobalList: true,
      hasIdSearch: true,
      hasLastChangedSearch: true,
      evidence: '/api/units/ answers q with id: and last_changed: terms',
    };
  }
  if (full instanceof HttpError && full.status === 404) return missing(full);
  const idsOnly = await ask(client, PROBE_IDS_ONLY, signal);
  if (idsOnly instanceof HttpError && idsOnly.status === 404) return missing(idsOnly);
  const refused = `/api/units/ refuses last_changed: in q (400 ${describe(full)})`;
  if (idsOnly === 'ok') {
    return {
      hasGlobalList: true,
      hasIdSearch: true,
      hasLastChangedSearch: false,
      evidence: `${refused}, which Weblate added in 5.14, and answers id: terms`,
    };
  }
  return {
    hasGlobalList: true,
    hasIdSearch: false,
    hasLastChangedSearch: false,
    evidence: `${refused} and id: terms too (400 ${describe(idsOnly)})`,
  };
}

/** 'ok', or the HttpError of a 400 or 404 (anything else is thrown). */
async function ask(
  client: WeblateClient,
  q: string,
  signal: AbortSignal | undefined,
): Promise<'ok' | HttpError> {
  const url = client.resolve('units/');
  url.searchParams.set('q', q);
  url.searchParams.set('page_size', '1');
  try {
    await client.getJson(url, UNIT_PROBE_RESOURCE, signal);
    return 'ok';
  } catch (err) {
    if (err instanceof HttpError && (err.status === 400 || err.status === 404)) return err;
    throw err;
  }
}

function missing(err: HttpError): UnitListCapabilities {
  return {
    hasGlobalList: false,
    hasIdSearch: null,
    hasLastChangedSearch: false,
    evidence: `/api/units/ answers 404 (${describe(err)})`,
  };
}

function describe(err: HttpError): string {
  return [err.code, err.detail].filter((part) => part !== null).join(': ') || 'no detail';
}
