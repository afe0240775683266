/**
 * Weblate's error bodies come in two shapes: drf-standardized-errors since 5.10,
 * `{"type", "errors": [{"code", "detail", "attr"}]}`, and plain DRF before it,
 * `{"detail": "…"}` (or `{"field": ["message"]}` for validation errors).
 */
export interface WeblateErrorInfo {
  code: string | null;
  detail: string | null;
}

const MAX_DETAIL = 300;

export function parseErrorBody(text: string): WeblateErrorInfo {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const snippet = text.replace(/\s+/g, ' ').trim();
    return { code: null, detail: snippet === '' ? null : shorten(snippet) };
  }
  if (body === null || typeof body !== 'object') return { code: null, detail: null };
  const record = body as Record<string, unknown>;
  if (Array.isArray(record.errors)) {
    const parts = (record.errors as unknown[]).map((e) => describeStandardError(e));
    const first = record.errors[0] as Record<string, unknown> | undefined;
    return {
      code: typeof first?.code === 'string' ? first.code : null,
      detail: shorten(parts.join('; ')),
    };
  }
  if (typeof record.detail === 'string') return { code: null, detail: shorten(record.detail) };
  const fields = Object.entries(record).map(
    ([field, messages]) => `${field}: ${[messages].flat().join(' ')}`,
  );
  return { code: null, detail: fields.length > 0 ? shorten(fields.join('; ')) : null };
}

function describeStandardError(error: unknown): string {
  if (error === null || typeof error !== 'object') return String(error);
  const { attr, detail } = error as { attr?: unknown; detail?: unknown };
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  return typeof attr === 'string' && attr !== '' ? `${attr}: ${text}` : text;
}

function shorten(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}
