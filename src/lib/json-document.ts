/**
 * The JSON documents the CLI prints for programs each open with `format`, their kind and
 * version: "weblate-mirror.<kind>/<version>". A version changes only when a field goes away or
 * changes meaning; new fields may appear within one (README, "Output for programs").
 */
export const DOCUMENT_FORMATS = {
  sync: 'weblate-mirror.sync/1',
  status: 'weblate-mirror.status/1',
  report: 'weblate-mirror.report/1',
  check: 'weblate-mirror.check/1',
  dryRun: 'weblate-mirror.dry-run/1',
  export: 'weblate-mirror.export/1',
  ready: 'weblate-mirror.ready/1',
  digest: 'weblate-mirror.digest/1',
} as const;

export type DocumentKind = keyof typeof DOCUMENT_FORMATS;

/** `body` with its `format` first. */
export function jsonDocument<T extends object>(
  kind: DocumentKind,
  body: T,
): { format: (typeof DOCUMENT_FORMATS)[DocumentKind] } & T {
  return { format: DOCUMENT_FORMATS[kind], ...body };
}
