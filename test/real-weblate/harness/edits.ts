import { expect } from 'vitest';

import type { TierApi } from './api.ts';
import type { WeblateInstance } from './instance.ts';
import { findUnit, STATE, unitsOf } from './seed.ts';
import { APP_ENTRIES, LONG_SOURCE, uploadAppFile } from './seed-files.ts';

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

/** German strings of aurora/app that automatic translation fills, from aurora/android. */
export const MACHINE_FILLED = {
  /** Bob post-edits it (a hyphen for a space), then Alice edits it again. */
  edited: {
    source: 'Ünïcödé ñame with combining e\u0301 and ZWJ 👩‍💻',
    machine: 'Ünïcödé Name mit kombinierendem e\u0301 und ZWJ 👩‍💻',
    person: 'Ünïcödé-Name mit kombinierendem e\u0301 und ZWJ 👩‍💻',
    later: 'Ünïcödé-Name mit kombiniertem e\u0301 und ZWJ 👩‍💻',
  },
  /** Admin approves it as the machine wrote it. */
  approved: {
    source: 'Right-to-left mark \u200f inside',
    machine: 'Rechts-nach-links-Zeichen \u200f darin',
  },
  /** Nobody touches it. */
  untouched: { source: LONG_SOURCE, machine: LONG_SOURCE.replaceAll('the', 'die') },
} as const;

/**
 * Automatic translation as Weblate does it (`POST …/autotranslate/`, mode translate, from
 * the project's other components): Android gains the German strings of MACHINE_FILLED, which
 * then fill aurora/app/de's; Bob post-edits one through the units API, Alice edits it again,
 * and admin approves another as it stands.
 */
export async function autoTranslateAndPostEdit(weblate: WeblateInstance): Promise<void> {
  const api = weblate.admin;
  const fills = Object.values(MACHINE_FILLED);
  for (const [index, { source }] of fills.entries())
    await api.post('translations/aurora/android/en/units/', {
      key: `machine_${index}`,
      value: [source],
    });
  const android = await unitsOf(api, 'aurora/android/de');
  for (const [index, { source, machine }] of fills.entries())
    await weblate.as('alice').patch(`units/${findUnit(android, source, `machine_${index}`).id}/`, {
      target: [machine],
      state: STATE.translated,
    });
  await api.post('translations/aurora/app/de/autotranslate/', {
    mode: 'translate',
    q: 'state:<translated',
    auto_source: 'others',
    // Required, though only machine translation reads it.
    threshold: 80,
  });
  const de = await unitsOf(api, 'aurora/app/de');
  for (const { source, machine } of fills)
    expect([source, findUnit(de, source).target]).toEqual([source, [machine]]);
  const edited = findUnit(de, MACHINE_FILLED.edited.source).id;
  for (const [who, target] of [
    ['bob', MACHINE_FILLED.edited.person],
    ['alice', MACHINE_FILLED.edited.later],
  ] as const)
    await weblate.as(who).patch(`units/${edited}/`, { target: [target], state: STATE.translated });
  await api.patch(`units/${findUnit(de, MACHINE_FILLED.approved.source).id}/`, {
    target: [MACHINE_FILLED.approved.machine],
    state: STATE.approved,
  });
}
