import { DIMENSIONS, type Metric, METRICS } from '../../src/metrics/lookup.ts';
import {
  describePace,
  METHOD_LABELS,
  methodsByPeriod,
  readinessByLanguage,
} from '../../src/report/answer-rows.ts';
import type { Report } from '../../src/report/model.ts';
import { renderCsv } from '../../src/report/render-csv.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { renderJson } from '../../src/report/render-json.ts';
import { renderTable } from '../../src/report/render-table.ts';

// The report's four surfaces read back into tables, and what each says of the figures the
// others say too (test/report/surfaces-agree.test.ts, metric-catalogue.test.ts).

export interface Table {
  /** The text section's title, or the HTML table's class. */
  name: string;
  headers: string[];
  rows: string[][];
}

export interface Surfaces {
  json: Report;
  /** CSV sections by name: rows keyed by column. */
  csv: Map<string, Record<string, string>[]>;
  text: { header: string; tables: Table[] };
  html: { cards: Map<string, string>; tables: Table[] };
}

/** The report rendered four ways and read back. */
export function renderSurfaces(report: Report): Surfaces {
  return readSurfaces({
    json: renderJson(report),
    csv: renderCsv(report),
    text: renderTable(report),
    html: renderHtml(report),
  });
}

export function readSurfaces(out: {
  json: string;
  csv: string;
  text: string;
  html: string;
}): Surfaces {
  return {
    json: JSON.parse(out.json) as Report,
    csv: parseCsv(out.csv),
    text: {
      header: out.text.split('\n').slice(0, 2).join('\n'),
      tables: parseTextTables(out.text),
    },
    html: { cards: parseCards(out.html), tables: parseHtmlTables(out.html) },
  };
}

/** RFC 4180 fields of one CSV line set (quotes, doubled quotes, CRLF). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') quoted = false;
    else if (quoted) field += ch;
    else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

export function parseCsv(text: string): Map<string, Record<string, string>[]> {
  const sections = new Map<string, Record<string, string>[]>();
  let name: string | null = null;
  let header: string[] | null = null;
  for (const record of csvRecords(text)) {
    if (record.length === 1 && record[0]!.startsWith('# ')) {
      name = record[0]!.slice(2);
      header = null;
      sections.set(name, []);
    } else if (record.length === 1 && record[0] === '') name = null;
    else if (name !== null && header === null) header = record;
    else if (name !== null && header !== null)
      sections.get(name)!.push(Object.fromEntries(header.map((h, i) => [h, record[i] ?? ''])));
  }
  return sections;
}

/** Every aligned table of the text report, by its section title (the line two above it). */
export function parseTextTables(text: string): Table[] {
  const lines = text.split('\n');
  const tables: Table[] = [];
  lines.forEach((line, i) => {
    if (!/^-+( {2}-+)*$/.test(line) || i < 1) return;
    const spans = [...line.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
    const cut = (l: string) => spans.map(([a, b]) => l.slice(a, b).trim());
    const rows: string[][] = [];
    for (let j = i + 1; j < lines.length && lines[j] !== '' && !lines[j]!.startsWith('('); j++)
      rows.push(cut(lines[j]!));
    tables.push({ name: lines[i - 3] ?? '', headers: cut(lines[i - 1]!), rows });
  });
  return tables;
}

const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

export function parseHtmlTables(html: string): Table[] {
  return [...html.matchAll(/<table class="([^"]*)">(.*?)<\/table>/gs)].map(([, name, body]) => ({
    name: name!,
    headers: [...body!.matchAll(/<th[^>]*>(.*?)<\/th>/gs)].map(([, h]) => stripTags(h!)),
    rows: [...body!.matchAll(/<tbody>(.*?)<\/tbody>/gs)].flatMap(([, tbody]) =>
      [...tbody!.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map(([, tr]) =>
        [...tr!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map(([, td]) => stripTags(td!)),
      ),
    ),
  }));
}

function parseCards(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/<div class="card"><b>(.*?)<\/b><span>(.*?)<\/span><\/div>/g)].map(
      ([, value, label]) => [stripTags(label!), stripTags(value!)],
    ),
  );
}

export const METRIC_BY_HEADING = new Map(METRICS.map((m) => [m.heading, m]));
export const DIMENSION_HEADINGS = new Set(DIMENSIONS.map((d) => d.heading));

/** Headings a table spreads one figure over: thresholds, methods, the period's name. */
export function isPivotHeading(heading: string): boolean {
  return (
    /^\d+(\.\d+)? %$/.test(heading) ||
    Object.values(METHOD_LABELS).includes(heading) ||
    /^(week|month)( of)?$/.test(heading)
  );
}

/** The first number of a cell, thousands separators and signs understood; null when none. */
function numberIn(cell: string): number | null {
  const m = /[-+−]?\d[\d,]*(\.\d+)?/.exec(cell);
  return m === null ? null : Number(m[0].replace(/,/g, '').replace('−', '-'));
}

/** Whether a cell shows `value` of `metric`, as its unit is written. */
export function cellShows(metric: Metric, cell: string, value: unknown): boolean {
  if (value === null || value === undefined) return numberIn(cell) === null;
  if (metric.unit === 'date' || metric.unit === 'timestamp')
    return typeof value === 'string' && cell.replace(/\s+/g, ' ').includes(value.slice(0, 10));
  if (metric.unit === 'flag') return true;
  const shown = numberIn(cell);
  if (shown === null || typeof value !== 'number') return false;
  if (metric.unit === 'hours') {
    const hours = cell.includes(' d') ? shown * 24 : shown;
    return Math.abs(hours - value) <= (cell.includes(' d') ? 1.2 : 0.05);
  }
  const decimals = ['percent', 'words a day', 'strings a day'].includes(metric.unit) ? 0.05 : 0;
  return Math.abs(shown - value) <= decimals + 1e-9;
}

/** The JSON rows each text section (by title) and HTML table (by class) lays out, in order. */
export function rowsOfTable(report: Report, table: Table): Record<string, unknown>[] | null {
  const rowsOf = (list: readonly object[]) => list as unknown as Record<string, unknown>[];
  const mover = (name: string) => report.movers.find((w) => w.name === name)?.rows ?? [];
  const { effort } = report;
  const byPrefix: Array<[RegExp, () => Record<string, unknown>[]]> = [
    [/^(Progress by project|projects$)/, () => rowsOf(report.projects)],
    [/^(Progress by language|languages$)/, () => rowsOf(report.languages)],
    [/^(Progress by component|components$)/, () => rowsOf(report.components)],
    [/^(Progress by category|categories$)/, () => rowsOf(report.categories)],
    [/^Labels:/, () => rowsOf(report.labels)],
    [/^(Biggest movers, last 7 days|movers movers-7d$)/, () => rowsOf(mover('7d'))],
    [/^(Biggest movers, last 30 days|movers movers-30d$)/, () => rowsOf(mover('30d'))],
    [/^(Biggest movers since|movers movers-since$)/, () => rowsOf(mover('since'))],
    [/^Contributors as Weblate credits them/, () => rowsOf(report.contributors.rows)],
    [/^(Stalled translations|stalled$)/, () => rowsOf(report.stalled.rows)],
    [/^(New work|new-work$)/, () => rowsOf(report.new_work)],
    [/^(Contributors ranked|ranking$)/, () => rowsOf(report.contributor_ranking.rows)],
    [/^(Review: strings waiting|review-waiting$)/, () => rowsOf(report.review.waiting.rows)],
    [/^(Review: time|review-approval$)/, () => rowsOf(report.review.approval.rows)],
    [/^(Quality|quality$)/, () => rowsOf(report.quality)],
    [/^(Translator work,|translator-work$)/, () => rowsOf([effort.translator_work])],
    [
      /^(Translator work per person|translator-work-people$)/,
      () => rowsOf(effort.translator_work_people?.rows ?? []),
    ],
    [/^(Remaining cost|cost$)/, () => rowsOf(effort.cost ?? [])],
    [/^(Machine translation|machine-translation$)/, () => rowsOf(effort.machine_translation.rows)],
    [/^(Time in each state|time-in-state$)/, () => rowsOf(effort.time_in_state.rows)],
    [/^(Strings .* for more than|over-target$)/, () => rowsOf(effort.over_target.rows)],
  ];
  const found = byPrefix.find(([pattern]) => pattern.test(table.name));
  return found === undefined ? null : found[1]();
}

/**
 * Every disagreement between the JSON and another surface about a figure both show: CSV
 * fields, text and HTML cells (by heading, through the catalogue), the HTML page's headline
 * cards and the text's header line. Empty when they agree.
 */
export function disagreements(s: Surfaces): string[] {
  const out: string[] = [];
  const report = s.json;
  for (const [where, tables] of [
    ['text', s.text.tables],
    ['html', s.html.tables],
  ] as const) {
    for (const table of tables) {
      const rows = rowsOfTable(report, table);
      if (rows === null) continue;
      if (where === 'html' && table.name === 'labels') continue; // a line per label: ranges
      if (rows.length !== table.rows.length) {
        out.push(`${where} ${table.name}: ${table.rows.length} rows, JSON ${rows.length}`);
        continue;
      }
      table.headers.forEach((heading, c) => {
        const metric = METRIC_BY_HEADING.get(heading);
        if (metric === undefined) return;
        const key = metric.name;
        rows.forEach((row, r) => {
          if (!(key in row)) {
            out.push(`${where} ${table.name}: ${heading} has no JSON key ${key}`);
            return;
          }
          const cell = table.rows[r]![c] ?? '';
          if (!cellShows(metric, cell, row[key]))
            out.push(
              `${where} ${table.name} row ${r} ${heading}: shows "${cell}", JSON ${String(row[key])}`,
            );
        });
      });
    }
    out.push(...pivots(report, tables, where));
  }
  out.push(...csvDisagreements(s), ...headlineDisagreements(s));
  return out;
}

/** Release readiness and translation methods, laid out one column per threshold or method. */
function pivots(report: Report, tables: readonly Table[], where: string): string[] {
  const out: string[] = [];
  const readiness = tables.find((t) => /^(Release readiness|readiness$)/.test(t.name));
  if (readiness !== undefined) {
    const lines = readinessByLanguage(report.release_readiness);
    lines.forEach((line, r) => {
      const cells = readiness.rows[r] ?? [];
      readiness.headers.forEach((heading, c) => {
        const threshold = /^(\d+) %$/.exec(heading);
        const cell = cells[c] ?? '';
        const want = threshold
          ? line.thresholds.find((t) => t.threshold === Number(threshold[1]))?.status
          : heading === 'net words a day'
            ? describePace(line)
            : undefined;
        if (want !== undefined && cell !== want)
          out.push(`${where} readiness row ${r} ${heading}: shows "${cell}", JSON ${want}`);
      });
    });
  }
  const methods = tables.find((t) => /^(Translation method|methods$)/.test(t.name));
  if (methods !== undefined) {
    methodsByPeriod(report.translation_methods).periods.forEach((period, r) => {
      methods.headers.forEach((heading, c) => {
        const method = Object.entries(METHOD_LABELS).find(([, label]) => label === heading)?.[0];
        if (method === undefined) return;
        const shown = numberIn(methods.rows[r]?.[c] ?? '');
        if (shown !== (period.words[method] ?? 0))
          out.push(
            `${where} methods ${period.period_start} ${heading}: ${shown}, JSON ${period.words[method]}`,
          );
      });
    });
  }
  return out;
}

/** A JSON value as the CSV writes it: empty for null, lists space-separated. */
function csvText(value: unknown): string {
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** What the CSV sections hold for the JSON's lists, field by field. */
function csvDisagreements(s: Surfaces): string[] {
  const r = s.json;
  const sections: Record<string, unknown[]> = {
    projects: r.projects,
    languages: r.languages,
    components: r.components,
    categories: r.categories,
    labels: r.labels,
    contributors: r.contributors.rows,
    stalled: r.stalled.rows,
    language_history: r.language_history,
    activity: r.activity,
    new_work: r.new_work,
    contributor_ranking: r.contributor_ranking.rows,
    review_waiting: r.review.waiting.rows,
    review_approval: r.review.approval.rows,
    translation_methods: r.translation_methods,
    release_readiness: r.release_readiness,
    quality: r.quality,
    translator_work: [r.effort.translator_work],
    ...(r.effort.translator_work_people === null
      ? {}
      : { translator_work_people: r.effort.translator_work_people.rows }),
    ...(r.effort.cost === null ? {} : { cost_estimate: r.effort.cost }),
    machine_translation: r.effort.machine_translation.rows,
    time_in_state: r.effort.time_in_state.rows,
    over_target: r.effort.over_target.rows,
    ...Object.fromEntries(r.movers.map((w) => [`movers_${w.name}`, w.rows])),
  };
  const out: string[] = [];
  for (const [name, rows] of Object.entries(sections)) {
    const csv = s.csv.get(name);
    if (csv === undefined) {
      out.push(`csv: no section ${name}`);
      continue;
    }
    if (csv.length !== rows.length)
      out.push(`csv ${name}: ${csv.length} rows, JSON ${rows.length}`);
    csv.forEach((fields, i) => {
      const row = rows[i] as Record<string, unknown> | undefined;
      for (const [key, field] of Object.entries(fields)) {
        const value = row?.[key];
        const want = csvText(value);
        if (field !== want) out.push(`csv ${name} row ${i} ${key}: "${field}", JSON "${want}"`);
      }
    });
  }
  return out;
}

/** The HTML page's headline cards and the text's header line against the JSON. */
function headlineDisagreements(s: Surfaces): string[] {
  const r = s.json;
  const { progress, activity } = r.totals;
  const want: Array<[string, string]> = [
    ['translated %', `${progress.translated_percent?.toFixed(1)}%`],
    ['translated / strings', `${fmt(progress.translated)} / ${fmt(progress.total)}`],
    ['languages in scope', fmt(r.languages.length)],
    ['components', fmt(r.components.length)],
    ['changes', fmt(activity.changes)],
    ['words translated', fmt(activity.words_translated)],
    ['people credited', fmt(r.contributors.matching)],
  ];
  const out = want
    .filter(([label, value]) => s.html.cards.has(label) && s.html.cards.get(label) !== value)
    .map(([label, value]) => `html card ${label}: ${s.html.cards.get(label)}, JSON ${value}`);
  const header = `${fmt(activity.changes)} changes, ${fmt(activity.words_translated)} words translated`;
  if (!s.text.header.includes(header)) out.push(`text header: lacks "${header}"`);
  return out;
}

const fmt = (n: number) => n.toLocaleString('en-US');
