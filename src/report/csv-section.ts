// One CSV table of the report (see render-csv.ts).

/** `# <name>`, a header row and the rows, CRLF line ends, ending with a line end. */
export function formatSection<Row>(
  name: string,
  columns: readonly (keyof Row)[],
  rows: Row[],
): string {
  const lines = [`# ${name}`, columns.map((c) => csvField(c)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One RFC 4180 field. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (Array.isArray(value)) text = value.map(String).join(' ');
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
