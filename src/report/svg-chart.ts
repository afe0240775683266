/**
 * Hand-written SVG charts for the HTML report: no script, no external resource. Every
 * data point is an element carrying its values (`data-day`, `data-value`), with a <title>
 * a browser shows on hover, so the charts can be read by people, by screen readers and by
 * tests alike.
 */

/** Escapes text for HTML and XML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Ten distinguishable colours with enough contrast on white (Tableau 10, darkened). */
const PALETTE = [
  '#4e79a7',
  '#e15759',
  '#59a14f',
  '#f28e2b',
  '#b07aa1',
  '#76b7b2',
  '#9c755f',
  '#b8860b',
  '#d37295',
  '#6b6b6b',
] as const;
/** After every colour was used once, the same colours again with another dash pattern. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3'] as const;

export interface SeriesStyle {
  color: string;
  dash: string;
}

export function seriesStyle(index: number): SeriesStyle {
  return {
    color: PALETTE[index % PALETTE.length]!,
    dash: DASHES[Math.floor(index / PALETTE.length) % DASHES.length]!,
  };
}

export interface LineSeries {
  /** Goes to `data-series`, e.g. a language code. */
  key: string;
  label: string;
  style: SeriesStyle;
  /** `estimated`: a value estimated from the change log rather than measured (docs/history.md). */
  points: Array<{ day: string; value: number; estimated?: boolean }>;
}

/** The dash of the stretch of a line that is estimated. */
export const ESTIMATED_DASH = '2 4';

const WIDTH = 960;
const HEIGHT = 280;
const MARGIN = { top: 12, right: 16, bottom: 34, left: 48 } as const;
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** The centre x of day `index` of `count` days. */
function dayX(index: number, count: number): number {
  return MARGIN.left + ((index + 0.5) * PLOT_W) / count;
}

function valueY(value: number, min: number, max: number): number {
  return MARGIN.top + PLOT_H - ((value - min) / (max - min)) * PLOT_H;
}

/** About `wanted` day labels as MM-DD: every `step`th day, and the last unless crowded. */
function dayAxis(days: string[], wanted = 8): string {
  const step = Math.max(1, Math.ceil(days.length / wanted));
  const last = days.length - 1;
  const labels = days.flatMap((day, i) => {
    const isLabelled = i % step === 0 || (i === last && last % step >= step / 2);
    if (!isLabelled) return [];
    const x = round(dayX(i, days.length));
    return [
      `<text x="${x}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${escapeHtml(day.slice(5))}</text>`,
    ];
  });
  const y = HEIGHT - MARGIN.bottom;
  return `<g class="axis x-axis"><line x1="${MARGIN.left}" y1="${y}" x2="${WIDTH - MARGIN.right}" y2="${y}"/>${labels.join('')}</g>`;
}

function valueAxis(ticks: number[], min: number, max: number, unit: string): string {
  const lines = ticks.map((t) => {
    const y = round(valueY(t, min, max));
    return (
      `<line class="grid" x1="${MARGIN.left}" y1="${y}" x2="${WIDTH - MARGIN.right}" y2="${y}"/>` +
      `<text x="${MARGIN.left - 6}" y="${y}" dy="0.32em" text-anchor="end">${t}${unit}</text>`
    );
  });
  return `<g class="axis y-axis">${lines.join('')}</g>`;
}

/** A percentage range to plot: tens around the data, at least 10 points tall. */
export function percentRange(values: number[]): { min: number; max: number } {
  if (values.length === 0) return { min: 0, max: 100 };
  let min = Math.max(0, Math.floor(Math.min(...values) / 10) * 10);
  let max = Math.min(100, Math.ceil(Math.max(...values) / 10) * 10);
  if (max - min < 10) {
    if (max + 10 <= 100) max = min + 10;
    else min = max - 10;
  }
  return { min, max };
}

function svgOpen(label: string, className: string): string {
  return (
    `<svg class="chart ${className}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" ` +
    `role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${escapeHtml(label)}</title>`
  );
}

function emptyNote(text: string): string {
  return `<text class="empty" x="${WIDTH / 2}" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle">${escapeHtml(text)}</text>`;
}

/** Lines of percentages over `days`; each point is a <circle> with data-day and data-value. */
export function renderLineChart(
  label: string,
  days: string[],
  series: LineSeries[],
  empty: string,
): string {
  const { min, max } = percentRange(series.flatMap((s) => s.points.map((p) => p.value)));
  const step = [2, 5, 10, 20].find((t) => (max - min) / t <= 6) ?? 20;
  const ticks = Array.from(
    { length: Math.floor((max - min) / step) + 1 },
    (_, i) => min + i * step,
  );
  const index = new Map(days.map((d, i) => [d, i]));
  const groups = series.map((s) => {
    const placed = s.points
      .filter((p) => index.has(p.day))
      .map((p) => ({
        ...p,
        x: dayX(index.get(p.day)!, days.length),
        y: valueY(p.value, min, max),
      }));
    // Estimated points come before measured ones: the estimated stretch is dotted, up to
    // and including the first measured point, which the solid stretch starts from.
    const cut = placed.findIndex((p) => p.estimated !== true);
    const estimated = cut === -1 ? placed : placed.slice(0, cut + 1);
    const measured = cut === -1 ? [] : placed.slice(cut);
    const polyline = (points: typeof placed, dash: string, className: string) =>
      points.length > 1
        ? `<polyline class="${className}" points="${points.map((p) => `${round(p.x)},${round(p.y)}`).join(' ')}" stroke="${s.style.color}"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`
        : '';
    const lines =
      polyline(estimated, ESTIMATED_DASH, 'estimated') +
      polyline(measured, s.style.dash, 'measured');
    const dots = placed.map((p) => {
      const origin = p.estimated === true ? 'estimated' : 'measured';
      const fill = p.estimated === true ? 'white' : s.style.color;
      const note = p.estimated === true ? ' (estimated)' : '';
      return (
        `<circle cx="${round(p.x)}" cy="${round(p.y)}" r="3" fill="${fill}" stroke="${s.style.color}" data-day="${p.day}" data-value="${p.value}" data-origin="${origin}">` +
        `<title>${escapeHtml(`${s.label}, ${p.day}: ${p.value.toFixed(1)}%${note}`)}</title></circle>`
      );
    });
    return `<g class="series" data-series="${escapeHtml(s.key)}">${lines}${dots.join('')}</g>`;
  });
  return [
    svgOpen(label, 'line-chart'),
    valueAxis(ticks, min, max, '%'),
    dayAxis(days),
    series.length === 0 ? emptyNote(empty) : groups.join(''),
    '</svg>',
  ].join('');
}

/** 1, 2 or 5 times a power of ten, at least `value` (and at least 1). */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** The smallest whole 1, 2 or 5 times a power of ten that cuts [0, max] into at most 5. */
function niceStep(max: number): number {
  for (let power = 1; ; power *= 10) {
    for (const step of [1, 2, 5]) if (max / (step * power) <= 5) return step * power;
  }
}

export interface Bar {
  day: string;
  value: number;
  /** Extra data attributes, e.g. `{ words: 120 }` → data-words="120". */
  data: Record<string, number>;
  title: string;
}

/** One bar per day; each is a <rect> with data-day and data-value (zero-height when 0). */
export function renderBarChart(label: string, bars: Bar[], empty: string): string {
  const max = niceCeiling(Math.max(0, ...bars.map((b) => b.value)));
  const step = niceStep(max);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  const slot = PLOT_W / Math.max(1, bars.length);
  const width = Math.max(1, slot * 0.8);
  const rects = bars.map((b, i) => {
    const y = valueY(b.value, 0, max);
    const extra = Object.entries(b.data)
      .map(([k, v]) => ` data-${k}="${v}"`)
      .join('');
    return (
      `<rect x="${round(dayX(i, bars.length) - width / 2)}" y="${round(y)}" width="${round(width)}" ` +
      `height="${round(MARGIN.top + PLOT_H - y)}" data-day="${b.day}" data-value="${b.value}"${extra}>` +
      `<title>${escapeHtml(b.title)}</title></rect>`
    );
  });
  const hasData = bars.some((b) => b.value > 0);
  return [
    svgOpen(label, 'bar-chart'),
    valueAxis(ticks, 0, max, ''),
    dayAxis(bars.map((b) => b.day)),
    `<g class="bars">${rects.join('')}</g>`,
    hasData ? '' : emptyNote(empty),
    '</svg>',
  ].join('');
}

/** A short line in a series' style, for a legend. */
export function renderSwatch(style: SeriesStyle): string {
  const dash = style.dash === '' ? '' : ` stroke-dasharray="${style.dash}"`;
  return (
    `<svg class="swatch" width="24" height="10" viewBox="0 0 24 10" aria-hidden="true">` +
    `<line x1="1" y1="5" x2="23" y2="5" stroke="${style.color}" stroke-width="3"${dash}/></svg>`
  );
}
