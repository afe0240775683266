import { isAtLeast } from './ready.ts';

// Badges as static SVG (docs/watching.md, "Badges"): shields.io's flat style, two parts
// (label | message), text widths estimated from Verdana 11px advances, every text escaped,
// and the time of the data in <title> and in a data-as-of attribute of the root element.

export const BADGE_COLOURS = {
  red: '#e05d44',
  orange: '#fe7d37',
  yellow: '#dfb317',
  green: '#4c1',
  grey: '#9f9f9f',
  blue: '#007ec6',
} as const;

/** Where a percentage's colour changes: below 50 red, 75 orange, 90 yellow; green from 90. */
export function percentColour(percent: string | null): string {
  if (percent === null) return BADGE_COLOURS.grey;
  if (!isAtLeast(percent, '50')) return BADGE_COLOURS.red;
  if (!isAtLeast(percent, '75')) return BADGE_COLOURS.orange;
  if (!isAtLeast(percent, '90')) return BADGE_COLOURS.yellow;
  return BADGE_COLOURS.green;
}

/** Advances of Verdana at 11px for printable ASCII from space (units of 2048 per em, ×11). */
const ASCII_ADVANCES = [
  720, 824, 1047, 1716, 1302, 2252, 1499, 550, 926, 926, 1302, 1716, 745, 880, 745, 1177, 1302,
  1302, 1302, 1302, 1302, 1302, 1302, 1302, 1302, 1302, 889, 889, 1716, 1716, 1716, 1114, 2048,
  1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 862, 934, 1422, 1165, 1743, 1532, 1612, 1268,
  1612, 1423, 1400, 1249, 1499, 1401, 2025, 1403, 1250, 1399, 926, 1177, 926, 1716, 1302, 1302,
  1229, 1270, 1066, 1270, 1210, 720, 1270, 1296, 562, 705, 1186, 562, 1993, 1296, 1243, 1270, 1270,
  874, 1066, 807, 1296, 1186, 1638, 1186, 1186, 1053, 1300, 926, 1300, 1716,
];
const PX_PER_UNIT = 11 / 2048;
/** A character outside the table: about an average letter, or a full em for wide scripts. */
const OTHER_WIDTH = 7;
const WIDE_WIDTH = 11;

/** The estimated width in pixels of `text` in Verdana 11px. */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const advance = code >= 32 && code <= 126 ? ASCII_ADVANCES[code - 32] : undefined;
    if (advance !== undefined) width += advance * PX_PER_UNIT;
    else width += code >= 0x1100 && isWide(code) ? WIDE_WIDTH : OTHER_WIDTH;
  }
  return width;
}

/** East Asian wide ranges (CJK, Hangul, kana, full-width forms, emoji). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xff60) ||
    code >= 0x1f300
  );
}

/** Text for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 does not allow at all are dropped.
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** The longest label shown; the whole one is in the title. */
const MAX_SHOWN = 40;

function shorten(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_SHOWN ? text : `${chars.slice(0, MAX_SHOWN - 1).join('')}…`;
}

export interface Badge {
  label: string;
  message: string;
  colour: string;
  /** The full sentence, for <title> and aria-label; the time of the data is added to it. */
  title: string;
  /** When the data shown was synced (ISO 8601 UTC). */
  dataAsOf: string;
}

/** Padding on each side of a part's text, as shields.io draws it. */
const PADDING = 5;

/** The badge as a standalone SVG document. */
export function renderBadge(badge: Badge): string {
  const label = shorten(badge.label);
  const message = shorten(badge.message);
  const labelText = Math.round(textWidth(label));
  const messageText = Math.round(textWidth(message));
  const left = labelText + 2 * PADDING;
  const right = messageText + 2 * PADDING;
  const width = left + right;
  const title = escapeXml(`${badge.title} (data as of ${badge.dataAsOf})`);
  const text = (content: string, centre: number, length: number) => {
    const shown = escapeXml(content);
    const attrs = `x="${centre * 10}" textLength="${length * 10}" transform="scale(.1)"`;
    return (
      `<text aria-hidden="true" ${attrs} y="150" fill="#010101" fill-opacity=".3">${shown}</text>` +
      `<text ${attrs} y="140">${shown}</text>`
    );
  };
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}" data-as-of="${escapeXml(badge.dataAsOf)}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${escapeXml(badge.colour)}"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">',
    text(label, left / 2, labelText),
    text(message, left + right / 2, messageText),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/** "87.5%", or "no data". */
function shownPercent(percent: string | null): string {
  return percent === null ? 'no data' : `${percent}%`;
}

/** A project's translated %. */
export function projectBadge(
  project: { name: string; percent: string | null },
  dataAsOf: string,
): Badge {
  return {
    label: 'translated',
    message: shownPercent(project.percent),
    colour: percentColour(project.percent),
    title: `${project.name}: ${shownPercent(project.percent)} translated`,
    dataAsOf,
  };
}

/** A language's translated %, in a project or across the mirror (project null). */
export function languageBadge(
  language: { code: string; name: string | null; percent: string | null },
  project: { name: string } | null,
  dataAsOf: string,
): Badge {
  const name = language.name ?? language.code;
  return {
    label: name,
    message: shownPercent(language.percent),
    colour: percentColour(language.percent),
    title: `${project === null ? '' : `${project.name}, `}${name}: ${shownPercent(language.percent)} translated`,
    dataAsOf,
  };
}

/** "N languages at ≥ X %", in a project or across the mirror (project null). */
export function levelBadge(
  counts: { level: string; ready: number; languages: number },
  project: { name: string } | null,
  dataAsOf: string,
): Badge {
  const { level, ready, languages } = counts;
  return {
    label: `languages ≥ ${level}%`,
    message: languages === 0 ? 'no data' : `${ready} of ${languages}`,
    colour: languages === 0 ? BADGE_COLOURS.grey : BADGE_COLOURS.blue,
    title: `${project === null ? 'All projects' : project.name}: ${ready} of ${languages} language${languages === 1 ? '' : 's'} at or above ${level} % translated`,
    dataAsOf,
  };
}
