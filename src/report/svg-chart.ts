/**
 * Hand-written SVG charts for the HTML report: no script, no external resource. Every
 * data point is an element carrying its values (`data-day`, `data-value`) and a <title>,
 * so people, screen readers and tests read the same figures.
 *
 * A chart is drawn to its box's width: no viewBox, so text keeps its 12 px on a phone.
 * Across, positions are percentages of the plot; up, pixels; value labels sit in the left
 * padding, lines in a nested <svg> stretched to the plot with strokes that do not stretch.
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

export interface LinePoint {
  day: string;
  value: number;
  /** Estimated from the change log rather than measured (docs/history.md). */
  estimated?: boolean;
}

export interface LineSeries {
  /** Goes to `data-series`, e.g. a language code. */
  key: string;
  label: string;
  style: SeriesStyle;
  /** Runs of consecutive points; the line breaks between runs, and a ring marks where one starts. */
  runs: LinePoint[][];
}

/** The dash of the stretch of a line that is estimated. */
export const ESTIMATED_DASH = '2 4';

const HEIGHT = 280;
const MARGIN = { top: 12, bottom: 34 } as const;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
/** The width of the lines' nested <svg> in its own units: x in thousandths of the plot. */
const LINE_UNITS = 1000;
/** The most days whose bars are drawn with a gap between them. */
const GAPPED_BARS = 64;
/** Day labels on a wide screen; every other one of them on a narrow screen. */
const DAY_LABELS = 8;

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A fraction of the plot's width as an SVG length: `37.5%`. */
function percent(fraction: number): string {
  return `${Math.round(fraction * 100_000) / 1000}%`;
}

/** The centre of day `index` of `count` days, as a fraction of the plot's width. */
function dayX(index: number, count: number): number {
  return (index + 0.5) / count;
}

function valueY(value: number, min: number, max: number): number {
  return MARGIN.top + PLOT_H - ((value - min) / (max - min)) * PLOT_H;
}

/**
 * The text of a day label: MM-DD, with the year on the first label and on each label whose
 * year differs from the label before, when the days cross a year.
 */
function dayLabel(day: string, previous: string | undefined, hasYears: boolean): string {
  if (!hasYears) return day.slice(5);
  return previous === undefined || previous.slice(0, 4) !== day.slice(0, 4) ? day : day.slice(5);
}

/**
 * About DAY_LABELS day labels, every `step`th day counted back from the last, which always
 * has one. Every other label is `minor`: the stylesheet hides those on a narrow screen. A
 * label shows the year when it differs from the label before it that is shown too.
 */
function dayAxis(days: string[]): string {
  const step = Math.max(1, Math.ceil(days.length / DAY_LABELS));
  const last = days.length - 1;
  const hasYears = days.length > 0 && days[0]!.slice(0, 4) !== days[last]!.slice(0, 4);
  let previous: string | undefined;
  let previousMajor: string | undefined;
  const labels: string[] = [];
  for (let i = last % step; i <= last; i += step) {
    const day = days[i]!;
    const isMajor = (last - i) % (2 * step) === 0;
    const text = dayLabel(day, isMajor ? previousMajor : previous, hasYears);
    previous = day;
    if (isMajor) previousMajor = day;
    // The labels at the ends stay inside the plot.
    const anchor = i === last ? 'end' : i < step / 2 ? 'start' : 'middle';
    labels.push(
      `<text${isMajor ? '' : ' class="minor"'} x="${percent(dayX(i, days.length))}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="${anchor}">${escapeHtml(text)}</text>`,
    );
  }
  const y = HEIGHT - MARGIN.bottom;
  return `<g class="axis x-axis"><line x1="0" y1="${y}" x2="100%" y2="${y}"/>${labels.join('')}</g>`;
}

/** Grid lines across the plot, their values in the <svg>'s left padding. */
function valueAxis(ticks: number[], min: number, max: number, unit: string): string {
  const lines = ticks.map((t) => {
    const y = round(valueY(t, min, max));
    return (
      `<line class="grid" x1="0" y1="${y}" x2="100%" y2="${y}"/>` +
      `<text x="-6" y="${y}" dy="0.32em" text-anchor="end">${t}${unit}</text>`
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
    `<svg class="chart ${className}" width="100%" height="${HEIGHT}" ` +
    `role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${escapeHtml(label)}</title>`
  );
}

function emptyNote(text: string): string {
  return `<text class="empty" x="50%" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle">${escapeHtml(text)}</text>`;
}

interface Placed extends LinePoint {
  /** A fraction of the plot's width. */
  x: number;
  y: number;
}

/** An SVG path through runs of points (in LINE_UNITS across): a move to the first point of each, lines on. */
function pathData(runs: Placed[][]): string {
  return runs
    .filter((run) => run.length > 1)
    .map((run) =>
      run.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x * LINE_UNITS)} ${round(p.y)}`).join(''),
    )
    .join('');
}

/**
 * A run's estimated stretch (up to and including the first measured point, which the solid
 * stretch starts from) and its measured one: estimated points come before measured ones.
 */
function splitByOrigin(run: Placed[]): { estimated: Placed[]; measured: Placed[] } {
  const cut = run.findIndex((p) => p.estimated !== true);
  if (cut === -1) return { estimated: run, measured: [] };
  return { estimated: run.slice(0, cut + 1), measured: run.slice(cut) };
}

function renderSeries(s: LineSeries, place: (p: LinePoint) => Placed | null): string {
  const runs = s.runs
    .map((run) => run.map(place).filter((p) => p !== null))
    .filter((r) => r.length > 0);
  const parts = runs.map(splitByOrigin);
  const path = (points: Placed[][], dash: string, className: string) => {
    const d = pathData(points);
    return d === ''
      ? ''
      : `<path class="${className}" d="${d}" stroke="${s.style.color}"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`;
  };
  // A ring where a run starts after a break, and on a run of one day, which draws no line.
  const rings = runs
    .filter((run, i) => i > 0 || run.length === 1)
    .map(
      (run) =>
        `<circle class="restart" cx="${percent(run[0]!.x)}" cy="${round(run[0]!.y)}" r="3.5" stroke="${s.style.color}" data-day="${run[0]!.day}"/>`,
    );
  // The paths' <svg> stretches its units across the plot; the rings stay outside it, round.
  return (
    `<g class="series" data-series="${escapeHtml(s.key)}">` +
    `<svg class="lines" width="100%" height="${HEIGHT}" viewBox="0 0 ${LINE_UNITS} ${HEIGHT}" preserveAspectRatio="none">` +
    path(
      parts.map((p) => p.estimated),
      ESTIMATED_DASH,
      'estimated',
    ) +
    path(
      parts.map((p) => p.measured),
      s.style.dash,
      'measured',
    ) +
    `</svg>${rings.join('')}</g>`
  );
}

/**
 * A transparent column per day with a line per series in its <title>: the figures on hover,
 * without a mark per point.
 */
function hoverColumns(days: string[], series: LineSeries[]): string {
  const byDay = new Map<string, Array<{ text: string; estimated: boolean }>>();
  for (const s of series)
    for (const p of s.runs.flat()) {
      const lines = byDay.get(p.day) ?? [];
      lines.push({ text: `${s.label}: ${p.value.toFixed(1)}%`, estimated: p.estimated === true });
      byDay.set(p.day, lines);
    }
  const width = percent(1 / Math.max(1, days.length));
  const columns = days.flatMap((day, i) => {
    const lines = byDay.get(day);
    if (lines === undefined) return [];
    // Says "estimated" once when the whole day is, else on each estimated line.
    const isAllEstimated = lines.every((l) => l.estimated);
    const head = isAllEstimated ? `${day} (estimated)` : day;
    const texts = lines.map((l) =>
      l.estimated && !isAllEstimated ? `${l.text} (estimated)` : l.text,
    );
    const x = percent(i / days.length);
    return [
      `<rect x="${x}" y="${MARGIN.top}" width="${width}" height="${PLOT_H}" data-day="${day}">` +
        `<title>${escapeHtml([head, ...texts].join('\n'))}</title></rect>`,
    ];
  });
  return `<g class="hover">${columns.join('')}</g>`;
}

/**
 * Lines of percentages over `days`: a <path> per series and origin, and a hover column per
 * day (with data-day) whose <title> gives every series' figure.
 */
export function renderLineChart(
  label: string,
  days: string[],
  series: LineSeries[],
  empty: string,
): string {
  const { min, max } = percentRange(series.flatMap((s) => s.runs.flat().map((p) => p.value)));
  const step = [2, 5, 10, 20].find((t) => (max - min) / t <= 6) ?? 20;
  const ticks = Array.from(
    { length: Math.floor((max - min) / step) + 1 },
    (_, i) => min + i * step,
  );
  const index = new Map(days.map((d, i) => [d, i]));
  const place = (p: LinePoint): Placed | null => {
    const i = index.get(p.day);
    return i === undefined ? null : { ...p, x: dayX(i, days.length), y: valueY(p.value, min, max) };
  };
  return [
    svgOpen(label, 'line-chart'),
    valueAxis(ticks, min, max, '%'),
    dayAxis(days),
    series.length === 0 ? emptyNote(empty) : series.map((s) => renderSeries(s, place)).join(''),
    series.length === 0 ? '' : hoverColumns(days, series),
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
  // A gap between bars while a phone's plot (about 320 px) gives each day 5 px or more;
  // beyond, bars fill their day, as gaps under a pixel would wash the bars out.
  const width = (bars.length > GAPPED_BARS ? 1 : 0.8) / Math.max(1, bars.length);
  const rects = bars.map((b, i) => {
    const y = valueY(b.value, 0, max);
    const extra = Object.entries(b.data)
      .map(([k, v]) => ` data-${k}="${v}"`)
      .join('');
    return (
      `<rect x="${percent(dayX(i, bars.length) - width / 2)}" y="${round(y)}" width="${percent(width)}" ` +
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
