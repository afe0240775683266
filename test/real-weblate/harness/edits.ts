import { expect } from 'vitest';

import type { TierApi } from './api.ts';
import type { WeblateInstance } from './instance.ts';
import { findUnit, STATE, unitsOf } from './seed.ts';
import { APP_ENTRIES, uploadAppFile } from './seed-files.ts';

// Edits several tier tests make through Weblate's own API and code.

/** An approval (Czech "Cancel") and a string marked for editing (Japanese "Settings"). */
export async function approveAndMarkForEditing(api: TierApi): Promise<void> {
  const cs = await unitsOf(api, 'aurora/app/cs');
  await api.patch(`units/${findUnit(cs, 'Cancel').id}/`, {
    target: ['Zrušit'],
    state: STATE.approved,
  });
  const ja = await unitsOf(api, 'aurora/app/ja');
  await api.patch(`units/${findUnit(ja, 'Settings').id}/`, {
    target: ['設定'],
    state: STATE.fuzzy,
  });
}

/**
 * Suggestions (an uploaded file's, method `suggest`) for the strings German lacks, accepted
 * by admin; `fields` names their author.
 */
export async function acceptGermanSuggestions(
  weblate: WeblateInstance,
  fields?: Record<string, string>,
): Promise<void> {
  const api = weblate.admin;
  const de = await unitsOf(api, 'aurora/app/de');
  const empty = new Set(de.filter((u) => u.state === STATE.empty).map((u) => u.source[0]));
  const suggested = APP_ENTRIES.filter((e) => e.plural === undefined && empty.has(e.source));
  expect(suggested.length).toBeGreaterThan(0);
  await uploadAppFile(api, 'aurora/app/de', {
    plural: 'nplurals=2; plural=(n != 1);',
    targets: Object.fromEntries(suggested.map((e) => [e.source, `${e.source} (Vorschlag)`])),
    method: 'suggest',
    ...(fields === undefined ? {} : { fields }),
  });
  const [accepted] = await weblate.ops([
    { op: 'accept_suggestions', args: { username: 'admin', translation: 'aurora/app/de' } },
  ]);
  expect(accepted).toBeGreaterThanOrEqual(suggested.length);
}
