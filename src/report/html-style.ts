/**
 * The HTML report's stylesheet, inlined into the page: readable on screen and on paper. On a
 * narrow screen (a phone) each table row becomes a card, so that no table is wider than the
 * screen: the cells before the key column (html-table.ts) name the row, the key figure ends
 * its first line, and the cells after it follow as labelled figures. Charts are drawn to
 * the width of their box (svg-chart.ts).
 */
export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --done: #2da44e; --bg-bar: #eaeef2; --head: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 24px; max-width: 1180px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.date { white-space: nowrap; }
p.meta, p.note, .empty-text { color: var(--muted); margin: 2px 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); font-size: 12px; }
.table-box { max-width: 100%; overflow-x: auto; }
svg.chart { display: block; width: 100%; height: 280px; padding-left: 48px; overflow: visible; font-size: 12px; }
svg.chart .axis line { stroke: #8c959f; }
svg.chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
svg.chart text { fill: var(--muted); }
svg.chart text.empty { font-size: 14px; }
svg.chart path { fill: none; stroke-width: 2; vector-effect: non-scaling-stroke; }
svg.chart circle.restart { fill: #fff; stroke-width: 2; }
svg.chart .hover rect { fill: transparent; }
svg.chart .hover rect:hover { fill: rgba(31, 35, 40, 0.08); }
svg.chart .bars rect { fill: #4e79a7; shape-rendering: crispEdges; }
ul.legend { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
table { border-collapse: collapse; width: 100%; margin-top: 4px; }
th, td { padding: 4px 6px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
th { font-weight: 600; background: var(--head); }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.key { font-weight: 600; white-space: nowrap; }
.bar-track { display: inline-block; vertical-align: middle; width: calc(100% - 64px); min-width: 64px; height: 10px; background: var(--bg-bar); border-radius: 5px; overflow: hidden; }
.bar-fill { display: block; height: 100%; background: var(--done); }
.bar-label { display: inline-block; min-width: 60px; padding-left: 4px; text-align: right; font-variant-numeric: tabular-nums; }
.category small { display: block; color: var(--muted); font-size: 12px; font-weight: 400; }
.up { color: #1a7f37; } .down { color: #cf222e; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media (max-width: 640px) {
  body { padding: 12px; }
  .card { min-width: 0; flex: 1 1 40%; }
  svg.chart .x-axis text.minor { display: none; }
  .table-box table, .table-box thead, .table-box tbody { display: block; }
  .table-box tr { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 8px; padding: 6px; border-bottom: 1px solid var(--line); }
  .table-box thead tr { background: var(--head); }
  .table-box th, .table-box td { display: block; min-width: 0; padding: 0; border: 0; background: none; text-align: left; }
  .table-box :is(th, td):not(.key, .key ~ *) { overflow-wrap: anywhere; }
  .table-box :is(th, td):not(.key, .key ~ *) + :is(th, td):not(.key, .key ~ *)::before { content: "·"; margin-right: 8px; color: var(--muted); }
  .table-box .key { margin-left: auto; text-align: right; }
  .table-box tr::after { content: ""; flex-basis: 100%; order: 1; }
  .table-box th.key ~ th, .table-box td.key ~ td:empty { display: none; }
  .table-box td.key ~ td { order: 2; font-size: 13px; }
  .table-box td.key ~ td::before { content: attr(data-label) " "; color: var(--muted); }
  .key .bar-track { width: 64px; }
}
@media print {
  body { padding: 0; max-width: none; }
  h2 { break-after: avoid; }
  tr, svg.chart { break-inside: avoid; }
  /* Paper does not scroll: smaller tables, shorter bars, and long names that may break
     inside a word, to fit an A4 page across. */
  .table-box { overflow: visible; }
  table { font-size: 11px; }
  th, td { padding: 2px 4px; }
  .table-box td:not(.key, .key ~ td) { overflow-wrap: anywhere; }
  .bar-track { width: 40px; min-width: 40px; }
}
`;
