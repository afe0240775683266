import type { TextScript } from './text-bank.ts';

/** One row of the simulator's language table; `script` picks target texts. */
export interface LanguageSeed {
  code: string;
  name: string;
  direction: 'ltr' | 'rtl';
  population: number;
  aliases: string[];
  plurals: number;
  formula: string;
  pluralType: number;
  script: TextScript;
}

const TWO_FORMS = 'n != 1';
const FRENCH_TWO_FORMS = 'n > 1';
const NO_PLURAL = '0';
const SLAVIC_THREE =
  'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';

function row(
  head: [code: string, name: string, direction: 'ltr' | 'rtl', population: number],
  aliases: string[],
  plural: [plurals: number, formula: string, pluralType: number],
  script: TextScript,
): LanguageSeed {
  const [code, name, direction, population] = head;
  const [plurals, formula, pluralType] = plural;
  return { code, name, direction, population, aliases, plurals, formula, pluralType, script };
}

/**
 * Real languages with Weblate-like plural definitions. English comes first: it is the
 * source language of every component. The order after it is the order target languages
 * are taken in, chosen so that even the default 10 cover 1-, 2-, 3-, 4- and 6-form plurals,
 * right-to-left scripts and codes with a region or a script subtag. Populations are
 * rough; English and Simplified Chinese deliberately exceed 2^31 to exercise int8 columns.
 */
export const LANGUAGE_TABLE: readonly LanguageSeed[] = [
  row(['en', 'English', 'ltr', 2_270_000_000], ['english', 'en_en'], [2, TWO_FORMS, 1], 'latin'),
  row(
    ['cs', 'Czech', 'ltr', 10_700_000],
    ['cs_cz', 'cze'],
    [3, '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2', 2],
    'latin',
  ),
  row(
    ['ar', 'Arabic', 'rtl', 422_000_000],
    ['ar_sa', 'ar_ar', 'ara'],
    [6, 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5', 3],
    'arabic',
  ),
  row(['ja', 'Japanese', 'ltr', 128_000_000], ['ja_jp', 'jp'], [1, NO_PLURAL, 0], 'japanese'),
  row(
    ['pt_BR', 'Portuguese (Brazil)', 'ltr', 211_000_000],
    ['pt-br', 'pt_br_br'],
    [2, FRENCH_TWO_FORMS, 1],
    'latin',
  ),
  row(
    ['zh_Hans', 'Chinese (Simplified Han script)', 'ltr', 2_200_000_000],
    ['zh_cn', 'zh-cn', 'zh_sg', 'zh-hans', 'zh_hans'],
    [1, NO_PLURAL, 0],
    'chinese',
  ),
  row(
    ['sl', 'Slovenian', 'ltr', 2_500_000],
    ['sl_si'],
    [4, 'n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3', 6],
    'latin',
  ),
  row(['ru', 'Russian', 'ltr', 258_000_000], ['ru_ru'], [3, SLAVIC_THREE, 2], 'cyrillic'),
  row(
    ['he', 'Hebrew', 'rtl', 9_000_000],
    ['iw', 'he_il'],
    [4, '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))', 10],
    'hebrew',
  ),
  row(['fa', 'Persian', 'rtl', 110_000_000], ['fa_ir', 'per'], [2, FRENCH_TWO_FORMS, 1], 'arabic'),
  row(
    ['sr_Latn', 'Serbian (latin)', 'ltr', 8_500_000],
    ['sr@latin', 'sr_rs@latin'],
    [3, SLAVIC_THREE, 2],
    'latin',
  ),
  row(['de', 'German', 'ltr', 134_000_000], ['de_de'], [2, TWO_FORMS, 1], 'latin'),
  row(['ko', 'Korean', 'ltr', 82_000_000], ['ko_kr'], [1, NO_PLURAL, 0], 'korean'),
  row(
    ['pl', 'Polish', 'ltr', 45_000_000],
    ['pl_pl'],
    [3, 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2', 2],
    'latin',
  ),
  row(['el', 'Greek', 'ltr', 13_500_000], ['el_gr'], [2, TWO_FORMS, 1], 'greek'),
  row(['hi', 'Hindi', 'ltr', 600_000_000], ['hi_in'], [2, FRENCH_TWO_FORMS, 1], 'devanagari'),
  row(['th', 'Thai', 'ltr', 61_000_000], ['th_th'], [1, NO_PLURAL, 0], 'thai'),
  row(['uk', 'Ukrainian', 'ltr', 33_000_000], ['uk_ua'], [3, SLAVIC_THREE, 2], 'cyrillic'),
  row(['fr', 'French', 'ltr', 310_000_000], ['fr_fr'], [2, FRENCH_TWO_FORMS, 1], 'latin'),
  row(['es', 'Spanish', 'ltr', 559_000_000], ['es_es'], [2, TWO_FORMS, 1], 'latin'),
  row(['it', 'Italian', 'ltr', 68_000_000], ['it_it'], [2, TWO_FORMS, 1], 'latin'),
  row(
    ['nb_NO', 'Norwegian Bokmål', 'ltr', 5_000_000],
    ['nb', 'no', 'no_no'],
    [2, TWO_FORMS, 1],
    'latin',
  ),
  row(
    ['zh_Hant', 'Chinese (Traditional Han script)', 'ltr', 31_000_000],
    ['zh_tw', 'zh-tw', 'zh_hk'],
    [1, NO_PLURAL, 0],
    'chinese',
  ),
  row(
    ['ga', 'Irish', 'ltr', 1_900_000],
    ['ga_ie'],
    [5, 'n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4', 11],
    'latin',
  ),
  row(['tr', 'Turkish', 'ltr', 88_000_000], ['tr_tr'], [2, FRENCH_TWO_FORMS, 1], 'latin'),
  row(['vi', 'Vietnamese', 'ltr', 86_000_000], ['vi_vn'], [1, NO_PLURAL, 0], 'latin'),
  row(['hu', 'Hungarian', 'ltr', 13_000_000], ['hu_hu'], [2, TWO_FORMS, 1], 'latin'),
  row(
    ['ro', 'Romanian', 'ltr', 24_000_000],
    ['ro_ro'],
    [3, 'n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2', 12],
    'latin',
  ),
  row(['ur', 'Urdu', 'rtl', 231_000_000], ['ur_pk'], [2, TWO_FORMS, 1], 'arabic'),
  row(['ca', 'Catalan', 'ltr', 9_000_000], ['ca_es'], [2, TWO_FORMS, 1], 'latin'),
  row(['fi', 'Finnish', 'ltr', 5_800_000], ['fi_fi'], [2, TWO_FORMS, 1], 'latin'),
  row(['eo', 'Esperanto', 'ltr', 2_000_000], [], [2, TWO_FORMS, 1], 'latin'),
];

/** Extra made-up languages for sizes beyond the table, so any `languages` count works. */
export function syntheticLanguage(index: number): LanguageSeed {
  return row(
    ['x' + String(index).padStart(3, '0'), `Test language ${index}`, 'ltr', 1000],
    [],
    [2, TWO_FORMS, 1],
    'latin',
  );
}
