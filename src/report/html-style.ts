/** The HTML report's stylesheet, inlined into the page: readable on screen and on paper. */
export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --done: #2da44e; --bg-bar: #eaeef2; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 24px; max-width: 1040px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
p.meta, p.note, .empty-text { color: var(--muted); margin: 2px 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); font-size: 12px; }
.chart-box, .table-box { max-width: 100%; overflow-x: auto; }
svg.chart { width: 100%; height: auto; display: block; font-size: 14px; }
svg.chart .axis line { stroke: #8c959f; }
svg.chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
svg.chart text { fill: var(--muted); }
svg.chart text.empty { font-size: 14px; }
svg.chart path { fill: none; stroke-width: 2; }
svg.chart circle.restart { fill: #fff; stroke-width: 2; }
svg.chart .hover rect { fill: transparent; }
svg.chart .hover rect:hover { fill: rgba(31, 35, 40, 0.08); }
svg.chart .bars rect { fill: #4e79a7; }
ul.legend { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
table { border-collapse: collapse; width: 100%; margin-top: 4px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
th { font-weight: 600; background: #f6f8fa; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.bar { width: 30%; min-width: 160px; }
.bar-track { display: inline-block; vertical-align: middle; width: calc(100% - 56px); height: 10px; background: var(--bg-bar); border-radius: 5px; overflow: hidden; }
.bar-fill { display: block; height: 100%; background: var(--done); }
.bar-label { display: inline-block; width: 48px; text-align: right; font-variant-numeric: tabular-nums; }
.category small { display: block; color: var(--muted); font-size: 12px; }
.up { color: #1a7f37; } .down { color: #cf222e; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media (max-width: 640px) {
  body { padding: 12px; }
  .card { min-width: 0; flex: 1 1 40%; }
  svg.chart { min-width: 600px; }
  td.bar, .bar-track { min-width: 0; }
  th, td { padding: 4px 6px; }
}
@media print { body { padding: 0; } h2 { break-after: avoid; } }
`;
