import type { Rng } from './prng.ts';

/**
 * Texts for sources and targets. Together they cover every script and every awkward
 * character class a mirror must store byte for byte: diacritics, Cyrillic, Greek, Arabic,
 * Hebrew, Devanagari, Thai, CJK, Hangul, emoji (skin tones, ZWJ sequences, flags), combining
 * marks, markup, placeholders, line feeds, tabs, quotes and backslashes.
 */
export type TextScript =
  | 'latin'
  | 'cyrillic'
  | 'greek'
  | 'arabic'
  | 'hebrew'
  | 'devanagari'
  | 'thai'
  | 'chinese'
  | 'japanese'
  | 'korean';

export const SOURCE_TEXTS: readonly string[] = [
  'Open file',
  'Save changes',
  'Delete %s?',
  'File "%s" could not be opened.',
  'Welcome, {name}!',
  '<b>Warning:</b> this action cannot be undone.',
  'Read the <a href="https://docs.example.org/start">documentation</a> first.',
  'Copied %1 of %2 files',
  'Line one\nLine two',
  'Column\tValue',
  'Path: C:\\Users\\{name}\\Documents',
  'Use \\n to insert a line break',
  "Don't show this again",
  'Press "OK" to continue',
  'Café, naïve, résumé, Ångström',
  'Zürich – São Paulo – Kraków',
  'Choose a language: Ελληνικά, Русский, 日本語, 한국어',
  'Also available in हिन्दी and ภาษาไทย',
  'Right-to-left: العربية and עברית',
  'Chinese: 简体中文 / 繁體中文',
  'Family: 👨‍👩‍👧‍👦',
  'Flags: 🇨🇿 🇯🇵 🇧🇷',
  'Thumbs up 👍🏽',
  'Combining marks: e\u0301 a\u0308 n\u0303',
  'The quick brown fox jumps over the lazy dog',
  'Are you sure you want to quit?',
  'Downloading… %d%% complete',
  'Connection to %s timed out after %d seconds.',
  'Your session will expire in {minutes} minutes.',
  'Sign in with your {provider} account',
  'Undo',
  'Redo',
  'Preferences',
  'Check for updates',
  'An unknown error occurred.\nPlease try again later.',
  '<a href="{url}">Learn more</a> about privacy',
  'Search results for “{query}”',
  'Name:\t%1\nSize:\t%2',
  'Escape sequence: \\t and \\\\',
  'Export as CSV, JSON or XLIFF',
];

/** Plural sources: [singular, plural]. */
export const PLURAL_SOURCES: readonly (readonly [string, string])[] = [
  ['%d file', '%d files'],
  ['{count} new message', '{count} new messages'],
  ['%n minute ago', '%n minutes ago'],
  ['One item selected', '%d items selected'],
  ['%1 comment', '%1 comments'],
  ['Deleted %d string', 'Deleted %d strings'],
];

const TARGETS: Readonly<Record<TextScript, readonly string[]>> = {
  latin: [
    'Otevřít soubor',
    'Uložit změny',
    'Smazat %s?',
    'Příšerně žluťoučký kůň úpěl ďábelské ódy',
    'Vítejte, {name}!',
    '<b>Varování:</b> tuto akci nelze vrátit.',
    'Přečtěte si nejdřív <a href="https://docs.example.org/start">dokumentaci</a>.',
    'Zkopírováno %1 z %2 souborů',
    'Řádek jedna\nŘádek dva',
    'Sloupec\tHodnota',
    'Cesta: C:\\Uživatelé\\{name}\\Dokumenty',
    'Não mostrar novamente',
    'Pressione “OK” para continuar',
    'Łódź, Gdańsk, Świętokrzyskie',
    'Šđčćž — Beograd',
    'Überprüfen Sie die Einstellungen',
    "L'éditeur n'a pas pu s'ouvrir",
  ],
  cyrillic: [
    'Открыть файл',
    'Сохранить изменения',
    'Удалить %s?',
    'Добро пожаловать, {name}!',
    '<b>Внимание:</b> это действие нельзя отменить.',
    'Скопировано %1 из %2 файлов',
    'Строка один\nСтрока два',
    'Відкрити файл «%s»',
  ],
  greek: ['Άνοιγμα αρχείου', 'Αποθήκευση αλλαγών', 'Διαγραφή %s;', 'Καλώς ήρθατε, {name}!'],
  arabic: [
    'فتح الملف',
    'حفظ التغييرات',
    'حذف %s؟',
    'مرحبًا، {name}!',
    '<b>تحذير:</b> لا يمكن التراجع عن هذا الإجراء.',
    'نسخ %1 من %2 ملفات',
    'باز کردن پرونده',
    'فائل کھولیں',
  ],
  hebrew: ['פתח קובץ', 'שמור שינויים', 'למחוק את %s?', 'ברוך הבא, {name}!', 'שורה אחת\nשורה שתיים'],
  devanagari: ['फ़ाइल खोलें', 'परिवर्तन सहेजें', '%s हटाएँ?', 'स्वागत है, {name}!'],
  thai: ['เปิดไฟล์', 'บันทึกการเปลี่ยนแปลง', 'ลบ %s หรือไม่?', 'ยินดีต้อนรับ {name}!'],
  chinese: [
    '打开文件',
    '保存更改',
    '删除 %s？',
    '欢迎，{name}！',
    '<b>警告：</b>此操作无法撤消。',
    '已复制 %2 个文件中的 %1 个',
    '開啟檔案',
  ],
  japanese: [
    'ファイルを開く',
    '変更を保存',
    '%s を削除しますか？',
    'ようこそ、{name}さん！',
    '1行目\n2行目',
  ],
  korean: ['파일 열기', '변경 사항 저장', '%s을(를) 삭제할까요?', '{name}님, 환영합니다!'],
};

const MIXED_TARGETS: readonly string[] = [
  '👍🏽 Hotovo!',
  '🇨🇿🇸🇰 Česko-Slovensko',
  '👩‍💻 Vývojářka {name}',
  'e\u0301te\u0301 — combining',
  'Tab\tseparated\tvalues',
  'Back\\slash and "quotes"',
  '✅ Done — 100%',
];

const ALL_SCRIPTS = Object.keys(TARGETS) as TextScript[];

export const COMMENT_TEXTS: readonly string[] = [
  'Please check the placeholder.',
  'Is this the right term here?',
  'Typo in the source: "teh"',
  'Тут опечатка.',
  '这个翻译不对。',
  'See @alice for context 👀',
];

export const NOTE_TEXTS: readonly string[] = [
  'Translators: shown on the toolbar, keep it short.',
  'Button label',
  '%s is a file name',
  'Poznámka: nepřekládat {name}',
];

/** Mostly the language's own script, sometimes emoji/markup, sometimes any script. */
export function pickTarget(rng: Rng, script: TextScript): string {
  const roll = rng.next();
  if (roll < 0.72) return rng.pick(TARGETS[script]);
  if (roll < 0.9) return rng.pick(MIXED_TARGETS);
  return rng.pick(TARGETS[rng.pick(ALL_SCRIPTS)]);
}

/** One target text per plural form, all derived from one pick so the forms stay related. */
export function pickTargetForms(rng: Rng, script: TextScript, forms: number): string[] {
  const base = pickTarget(rng, script);
  return Array.from({ length: forms }, (_, form) => (form === 0 ? base : `${base} [${form}]`));
}

/** Weblate counts words on whitespace; a string always has at least one word. */
export function countWords(text: string): number {
  return Math.max(1, text.split(/\s+/u).filter((word) => word !== '').length);
}

/** Code points, as Postgres' `length()` counts them for Weblate's `*_chars` statistics. */
export function countChars(text: string): number {
  const pairs = text.match(/[\ud800-\udbff][\udc00-\udfff]/g);
  return text.length - (pairs?.length ?? 0);
}
