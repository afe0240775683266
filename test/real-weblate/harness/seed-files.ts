import { FormData, type TierApi } from './api.ts';

/**
 * Translation files the tier uploads to Weblate: gettext PO with plurals and contexts, Android
 * resources and nested JSON (both monolingual, where a unit's id_hash comes from its key and
 * differs from its content_hash), with texts in several scripts, right to left, emoji,
 * newlines, placeholders, markup and one very long string.
 */

export interface PoEntry {
  context?: string;
  comment?: string;
  flags?: string[];
  source: string;
  plural?: string;
}

export interface PoTranslation {
  /** One form, or one per plural form of the language; '' leaves it untranslated. */
  target: string | string[];
  fuzzy?: boolean;
}

export const LONG_SOURCE = Array.from(
  { length: 60 },
  (_, i) =>
    `Paragraph ${i + 1}: the quick brown fox jumps over the lazy dog, while the release manager counts strings.`,
).join(' ');

export const APP_ENTRIES: PoEntry[] = [
  { source: 'Hello, world!', comment: 'Greeting on the start screen' },
  { source: '%d file', plural: '%d files', flags: ['c-format'] },
  { source: 'Welcome, {name}!', comment: 'Placeholder {name} is the user name' },
  { source: 'First line\nSecond line\nThird line' },
  { source: 'Rocket 🚀 launch in %s seconds', flags: ['c-format'] },
  { source: '<b>Bold</b> &amp; <i>italic</i> markup' },
  { context: 'menu', source: 'Open' },
  { context: 'door', source: 'Open' },
  { source: 'Tab\there, quotes "double" and \'single\', backslash \\ done' },
  { source: LONG_SOURCE, comment: 'A very long string' },
  { source: '%1$s of %2$s strings translated', flags: ['c-format'] },
  { source: 'Save' },
  { source: 'Cancel' },
  { source: 'Delete %d item?', plural: 'Delete %d items?', flags: ['c-format'] },
  { source: 'Settings' },
  { source: 'Ünïcödé ñame with combining e\u0301 and ZWJ 👩‍💻' },
  { source: 'Right-to-left mark \u200f inside' },
  { source: 'Last synced {date}' },
];

/** Translations by language; entries are matched by index of APP_ENTRIES. */
export const APP_TRANSLATIONS: Record<string, { plural: string; units: PoTranslation[] }> = {
  cs: {
    plural: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
    units: [
      { target: 'Ahoj, světe!' },
      { target: ['%d soubor', '%d soubory', '%d souborů'] },
      { target: 'Vítejte, {name}!' },
      { target: 'První řádek\nDruhý řádek\nTřetí řádek' },
      { target: 'Start rakety 🚀 za %s sekund', fuzzy: true },
      { target: '' },
      { target: 'Otevřít' },
      { target: 'Otevřít dveře' },
      { target: 'Tabulátor\tzde, uvozovky „dvojité" a ‚jednoduché‘, zpětné lomítko \\ hotovo' },
      { target: `Dlouhý text: ${LONG_SOURCE.replaceAll('the', 'ten')}` },
      { target: '%1$s z %2$s řetězců přeloženo' },
      { target: 'Uložit' },
      { target: '' },
      { target: ['Smazat %d položku?', 'Smazat %d položky?', 'Smazat %d položek?'], fuzzy: true },
      { target: 'Nastavení' },
      { target: 'Ünïcödé jméno s e\u0301 a 👩‍💻' },
      { target: '' },
      { target: 'Naposledy synchronizováno {date}' },
    ],
  },
  ar: {
    plural:
      'nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;',
    units: [
      { target: 'مرحبا بالعالم!' },
      { target: ['لا ملفات', 'ملف %d', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'] },
      { target: 'أهلا {name}!' },
      { target: 'السطر الأول\nالسطر الثاني\nالسطر الثالث' },
      { target: '' },
      { target: '<b>عريض</b> &amp; <i>مائل</i>' },
      { target: 'افتح' },
      { target: '' },
      { target: '' },
      { target: '' },
      { target: '%1$s من %2$s' },
      { target: 'حفظ' },
      { target: 'إلغاء' },
      { target: '' },
      { target: 'الإعدادات', fuzzy: true },
      { target: '' },
      { target: 'علامة \u200f من اليمين' },
      { target: '' },
    ],
  },
  ja: {
    plural: 'nplurals=1; plural=0;',
    units: [
      { target: 'こんにちは、世界！' },
      { target: ['%d 個のファイル'] },
      { target: 'ようこそ、{name}さん！' },
      { target: '' },
      { target: 'ロケット🚀発射まで%s秒' },
      { target: '' },
      { target: '開く' },
      { target: '開ける' },
      { target: '' },
      { target: '' },
      { target: '%2$s 件中 %1$s 件を翻訳済み' },
      { target: '保存' },
      { target: 'キャンセル' },
      { target: ['%d 個の項目を削除しますか？'] },
      { target: '設定' },
      { target: '' },
      { target: '' },
      { target: '最終同期 {date}' },
    ],
  },
  de: {
    plural: 'nplurals=2; plural=(n != 1);',
    units: [
      { target: 'Hallo, Welt!' },
      { target: ['%d Datei', '%d Dateien'] },
      { target: 'Willkommen, {name}!' },
      { target: 'Erste Zeile\nZweite Zeile\nDritte Zeile' },
      { target: 'Raketenstart 🚀 in %s Sekunden' },
      { target: '<b>Fett</b> &amp; <i>kursiv</i>' },
      { target: 'Öffnen' },
      { target: 'Tür öffnen' },
      { target: '' },
      { target: '' },
      { target: '%1$s von %2$s Zeichenketten übersetzt' },
      { target: 'Speichern' },
      { target: 'Abbrechen' },
      { target: ['%d Element löschen?', '%d Elemente löschen?'] },
      { target: 'Einstellungen' },
      { target: '' },
      { target: '' },
      { target: '' },
    ],
  },
};

/** A PO file (or the POT template when `language` is null). */
export function poFile(
  entries: PoEntry[],
  language: string | null,
  translations?: { plural: string; units: PoTranslation[] },
): string {
  const header = [
    'msgid ""',
    'msgstr ""',
    '"Project-Id-Version: weblate-mirror tier\\n"',
    `"Language: ${language ?? ''}\\n"`,
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
    `"Plural-Forms: ${translations?.plural ?? 'nplurals=2; plural=(n != 1);'}\\n"`,
    '',
  ];
  const blocks = entries.map((entry, index) => {
    const unit = translations?.units[index];
    const lines: string[] = [];
    if (entry.comment) lines.push(`#. ${entry.comment}`);
    const flags = [...(entry.flags ?? []), ...(unit?.fuzzy ? ['fuzzy'] : [])];
    if (flags.length > 0) lines.push(`#, ${flags.join(', ')}`);
    if (entry.context) lines.push(`msgctxt ${poString(entry.context)}`);
    lines.push(`msgid ${poString(entry.source)}`);
    const targets = unit === undefined ? [''] : [unit.target].flat();
    if (entry.plural !== undefined) {
      lines.push(`msgid_plural ${poString(entry.plural)}`);
      const forms = Number(/nplurals=(\d+)/.exec(translations?.plural ?? 'nplurals=2')?.[1] ?? 2);
      for (let form = 0; form < forms; form++) {
        lines.push(`msgstr[${form}] ${poString(targets[form] ?? '')}`);
      }
    } else {
      lines.push(`msgstr ${poString(targets[0] ?? '')}`);
    }
    return lines.join('\n');
  });
  return `${header.join('\n')}\n${blocks.join('\n\n')}\n`;
}

function poString(text: string): string {
  const escaped = text
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('\t', '\\t')
    .replaceAll('\n', '\\n');
  // Multi-line texts as continuation lines, the way msgmerge writes them.
  if (text.includes('\n')) {
    const parts = escaped.split('\\n');
    return `""\n${parts.map((part, i) => `"${part}${i < parts.length - 1 ? '\\n' : ''}"`).join('\n')}`;
  }
  return `"${escaped}"`;
}

/** Android string resources: [key, text] pairs and one plurals element. */
export function androidStrings(
  strings: Array<[string, string]>,
  plurals: { key: string; forms: Record<string, string> } | null,
): string {
  const escape = (text: string) =>
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll("'", "\\'")
      .replaceAll('"', '\\"')
      .replaceAll('\n', '\\n');
  const lines = ['<?xml version="1.0" encoding="utf-8"?>', '<resources>'];
  for (const [key, text] of strings)
    lines.push(`    <string name="${key}">${escape(text)}</string>`);
  if (plurals) {
    lines.push(`    <plurals name="${plurals.key}">`);
    for (const [quantity, text] of Object.entries(plurals.forms)) {
      lines.push(`        <item quantity="${quantity}">${escape(text)}</item>`);
    }
    lines.push('    </plurals>');
  }
  lines.push('</resources>', '');
  return lines.join('\n');
}

export const ANDROID_SOURCE: Array<[string, string]> = [
  ['app_name', 'Aurora'],
  ['greeting', 'Good morning, %1$s!'],
  ['multiline', 'Line one\nLine two'],
  ['emoji', 'Party 🎉 time'],
  ['rtl_sample', 'Shalom'],
  ['settings_title', 'Settings'],
  ['about', 'About this app'],
];

export const ANDROID_TRANSLATIONS: Record<string, Array<[string, string]>> = {
  de: [
    ['app_name', 'Aurora'],
    ['greeting', 'Guten Morgen, %1$s!'],
    ['multiline', 'Zeile eins\nZeile zwei'],
    ['settings_title', 'Einstellungen'],
  ],
  he: [
    ['greeting', 'בוקר טוב, %1$s!'],
    ['rtl_sample', 'שלום'],
    ['emoji', 'מסיבה 🎉 עכשיו'],
  ],
};

/** Nested JSON (Weblate's `json` format): keys joined by dots become units' contexts. */
export const WEB_SOURCE = {
  nav: { home: 'Home', docs: 'Documentation', search: 'Search…' },
  footer: { copyright: '© {year} Borealis', contact: 'Write to us at {email}' },
  emptyState: 'Nothing here yet.\nAdd something!',
};

export const WEB_TRANSLATIONS: Record<string, unknown> = {
  fr: {
    nav: { home: 'Accueil', docs: 'Documentation', search: 'Rechercher…' },
    footer: { copyright: '© {year} Borealis' },
  },
  zh_Hans: { nav: { home: '首页', search: '搜索…' }, emptyState: '这里还没有内容。\n添加一些吧！' },
  uk: { nav: { home: 'Головна' }, footer: { contact: 'Пишіть нам на {email}' } },
};

export const DOCS_ENTRIES: PoEntry[] = [
  { source: 'Installation' },
  { source: 'Run `npm ci` first.' },
  { source: 'Chapter %d', plural: 'Chapters %d', flags: ['c-format'] },
  { source: 'See also: {link}' },
];

export const DOCS_TRANSLATIONS: Record<string, { plural: string; units: PoTranslation[] }> = {
  fr: {
    plural: 'nplurals=2; plural=(n > 1);',
    units: [
      { target: 'Installation' },
      { target: 'Exécutez d’abord `npm ci`.' },
      { target: ['Chapitre %d', 'Chapitres %d'] },
      { target: '' },
    ],
  },
  uk: {
    plural:
      'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
    units: [
      { target: 'Встановлення' },
      { target: '' },
      { target: ['Розділ %d', 'Розділи %d', 'Розділів %d'] },
      { target: 'Дивіться також: {link}' },
    ],
  },
};

/**
 * Uploads the app component's PO file into `translation` (`project/component/language`):
 * `targets` by source string, the other entries empty, with the upload `method` and any
 * other form `fields` (author_email, author_name…).
 */
export function uploadAppFile(
  api: TierApi,
  translation: string,
  options: {
    plural: string;
    targets: Record<string, string>;
    method: 'suggest' | 'translate';
    fields?: Record<string, string>;
  },
): Promise<unknown> {
  const language = translation.split('/').at(-1)!;
  const units = APP_ENTRIES.map((entry) => ({ target: options.targets[entry.source] ?? '' }));
  const form = new FormData();
  form.set(
    'file',
    new Blob([poFile(APP_ENTRIES, language, { plural: options.plural, units })]),
    `${language}.po`,
  );
  form.set('method', options.method);
  for (const [name, value] of Object.entries(options.fields ?? {})) form.set(name, value);
  return api.postForm(`translations/${translation}/file/`, form);
}
