import { formatRandomOffset } from './clock.ts';
import type { SimComponent, SimLanguage, SimTranslation, SimUnit, UnitState } from './model.ts';
import type { Rng } from './prng.ts';
import { calculateHash } from './siphash.ts';
import {
  countChars,
  countWords,
  NOTE_TEXTS,
  pickTarget,
  pickTargetForms,
  PLURAL_SOURCES,
  SOURCE_TEXTS,
  type TextScript,
} from './text-bank.ts';

/** Weblate's internal separator of plural forms (`trans/util.py`), also used for hashing. */
export const PLURAL_SEPARATOR = '\x1e\x1e';

const SECTIONS = ['menu', 'dialog', 'button', 'error', 'settings', 'toolbar', 'status', 'help'];
const NOUNS = ['file', 'edit', 'open', 'save', 'close', 'export', 'import', 'print', 'search'];
const EXPLANATIONS = [
  'Shown in the main toolbar.',
  'Keep it under 20 characters.',
  'Used in e-mails.',
];

/** What all translations of one component share for one source string. */
interface SourceString {
  source: string[];
  context: string;
  location: string;
  note: string;
  flags: string;
  idHash: bigint;
  contentHash: bigint;
  numWords: number;
  numChars: number;
}

function makeSourceForms(rng: Rng, index: number, used: Set<string>): string[] {
  let forms = rng.chance(0.1) ? [...rng.pick(PLURAL_SOURCES)] : [rng.pick(SOURCE_TEXTS)];
  // Sources must be distinct within a component (bilingual id_hash is derived from them).
  if (used.has(forms.join(PLURAL_SEPARATOR))) forms = forms.map((form) => `${form} #${index}`);
  used.add(forms.join(PLURAL_SEPARATOR));
  return forms;
}

function makeContext(rng: Rng, component: SimComponent, index: number, used: Set<string>): string {
  if (component.template === '') return '';
  const separator = component.fileFormat === 'aresource' ? '_' : '.';
  let key = [rng.pick(SECTIONS), rng.pick(NOUNS), rng.pick(NOUNS)].join(separator);
  if (used.has(key)) key = `${key}${separator}${index}`;
  used.add(key);
  return key;
}

function makeLocation(rng: Rng, component: SimComponent, context: string): string {
  if (component.fileFormat === 'json') return context;
  if (component.fileFormat !== 'po' || rng.chance(0.3)) return '';
  const first = `src/${rng.pick(NOUNS)}.c:${rng.int(1, 2000)}`;
  return rng.chance(0.2) ? `${first}, src/${rng.pick(NOUNS)}.h:${rng.int(1, 300)}` : first;
}

export function makeSourceStrings(
  rng: Rng,
  component: SimComponent,
  count: number,
): SourceString[] {
  const usedSources = new Set<string>();
  const usedContexts = new Set<string>();
  return Array.from({ length: count }, (_, index) => {
    const source = makeSourceForms(rng, index, usedSources);
    const joined = source.join(PLURAL_SEPARATOR);
    const context = makeContext(rng, component, index, usedContexts);
    const contentHash = calculateHash(joined, context);
    const isBilingual = component.template === '';
    let flags = component.fileFormat === 'po' && joined.includes('%') ? 'c-format' : '';
    if (rng.chance(0.03)) flags = flags === '' ? 'max-length:80' : `${flags}, max-length:80`;
    return {
      source,
      context,
      location: makeLocation(rng, component, context),
      note: rng.chance(0.15) ? rng.pick(NOTE_TEXTS) : '',
      flags,
      contentHash,
      // weblate/utils/hash.py and Unit.update_from_unit: bilingual formats hash source+context, monolingual ones the key only.
      idHash: isBilingual ? contentHash : calculateHash(context),
      numWords: countWords(source[0] ?? ''),
      numChars: countChars(joined),
    };
  });
}

/** Share of a target translation's units that are not empty; some translations are complete. */
export function pickCompleteness(rng: Rng): number {
  return rng.chance(0.15) ? 1 : 0.05 + rng.next() * 0.93;
}

function pickTargetState(rng: Rng, completeness: number, hasReview: boolean): UnitState {
  if (rng.next() >= completeness) return 0;
  // A complete translation (completeness 1) has nothing left to edit: no fuzzy strings.
  const roll = completeness < 1 ? rng.next() : 0.1 + rng.next() * 0.9;
  if (roll < 0.07) return 10;
  if (roll < 0.085) return 11;
  if (roll < 0.1) return 12;
  // Approved strings exist only where the project reviews translations, as in Weblate.
  if (hasReview && roll < 0.45) return 30;
  return 20;
}

export interface TranslationUnitPlan {
  translation: SimTranslation;
  language: SimLanguage;
  script: TextScript;
  strings: readonly SourceString[];
  /** Ids of the source translation's units, by position; empty while building that one. */
  sourceUnitIds: readonly number[];
  completeness: number;
  hasReview: boolean;
  createdUs: number;
}

function baseUnit(plan: TranslationUnitPlan, position: number, id: number): SimUnit {
  const string = plan.strings[position - 1] as SourceString;
  return {
    id,
    translationId: plan.translation.id,
    source: string.source,
    previousSource: '',
    target: [],
    idHash: string.idHash,
    contentHash: string.contentHash,
    location: string.location,
    context: string.context,
    note: string.note,
    flags: string.flags,
    explanation: '',
    extraFlags: '',
    state: 100,
    position,
    hasSuggestion: false,
    hasComment: false,
    hasFailingCheck: false,
    numWords: string.numWords,
    numChars: string.numChars,
    sourceUnitId: plan.sourceUnitIds[position - 1] ?? id,
    priority: 100,
    pending: false,
    timestamp: '',
    lastUpdated: '',
    lastUpdatedUs: 0,
  };
}

function fillSourceUnit(rng: Rng, unit: SimUnit): void {
  unit.target = [...unit.source];
  unit.hasComment = rng.chance(0.02);
  unit.hasFailingCheck = rng.chance(0.01);
  if (rng.chance(0.04)) unit.explanation = rng.pick(EXPLANATIONS);
}

function fillTargetUnit(rng: Rng, unit: SimUnit, plan: TranslationUnitPlan): void {
  const state = pickTargetState(rng, plan.completeness, plan.hasReview);
  const forms = unit.source.length > 1 ? plan.language.plural.number : 1;
  unit.state = state;
  unit.target =
    state === 0 ? Array<string>(forms).fill('') : pickTargetForms(rng, plan.script, forms);
  unit.hasSuggestion = rng.chance(state === 0 ? 0.05 : 0.02);
  unit.hasComment = rng.chance(0.02);
  unit.hasFailingCheck = state !== 0 && rng.chance(0.04);
  unit.pending = state >= 20 && rng.chance(0.03);
  if (state > 0 && state < 20 && rng.chance(0.3)) unit.previousSource = pickTarget(rng, 'latin');
  if (rng.chance(0.02)) unit.extraFlags = 'max-length:120';
}

/** Units of one translation, ids taken from `nextId` (with the odd gap of a deleted unit). */
export function buildTranslationUnits(
  rng: Rng,
  plan: TranslationUnitPlan,
  nextId: { value: number },
): SimUnit[] {
  return plan.strings.map((_, i) => {
    if (rng.chance(0.01)) nextId.value += rng.int(1, 3);
    const unit = baseUnit(plan, i + 1, nextId.value);
    nextId.value += 1;
    if (plan.translation.isSource) fillSourceUnit(rng, unit);
    else fillTargetUnit(rng, unit, plan);
    const createdUs = plan.createdUs + i * 1500 + rng.int(0, 999);
    unit.timestamp = formatRandomOffset(rng, createdUs);
    unit.lastUpdated = unit.timestamp;
    unit.lastUpdatedUs = createdUs;
    return unit;
  });
}
