import { CONFIG_TABLE, CONFIG_VARIABLE_NAMES } from '../src/config-table.ts';

/** The README's table of variables sits between these; everything else in it is written by hand. */
export const START_MARKER = '<!-- config:start -->';
export const END_MARKER = '<!-- config:end -->';
export const README_COMMAND = 'npm run docs:config';

/** The markdown table of every variable, aligned exactly as prettier aligns it. */
export function configTableMarkdown(): string {
  const rows = CONFIG_VARIABLE_NAMES.map((name) => {
    const { readmeDefault, meaning } = CONFIG_TABLE[name];
    return [`\`${name}\``, readmeDefault, meaning].map(escapeCell);
  });
  const header = ['Variable', 'Default', 'Meaning'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** `readme` with the table between the markers replaced by the generated one. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start)
    throw new Error(`README.md needs ${START_MARKER} and then ${END_MARKER} around the table`);
  const before = readme.slice(0, start + START_MARKER.length);
  return `${before}\n\n${configTableMarkdown()}\n\n${readme.slice(end)}`;
}

/** A pipe would end the cell. */
function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}
