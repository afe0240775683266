import { z } from 'zod';

/**
 * The body of a webhook from Weblate's webhook add-on: `json.dumps()` of one change
 * (weblate/addons/webhooks.py, `build_webhook_payload`). Optional keys are left out when
 * empty. Only the keys the mirror uses are checked; the others (`target`, `old`, `source`,
 * `url`, `author`, `user`, `category`, and whatever later versions add) are ignored, so a
 * change in one of them never costs an event its scope.
 */

/** A Weblate project or component slug (Django's SlugField: ASCII letters, digits, - and _). */
const slug = z.string().regex(/^[\w-]{1,100}$/);
/** A language code such as `de`, `pt_BR`, `sr@latin` or `en-GB`. */
const languageCode = z.string().regex(/^[\w@+-][\w.@+-]{0,99}$/);

const webhookBodySchema = z
  .object({
    change_id: z.number().int().nonnegative(),
    /** The action's display name, e.g. "Translation changed". */
    action: z.string(),
    /** ISO 8601 with offset and microseconds, e.g. 2026-11-25T10:00:00.123456+00:00. */
    timestamp: z.iso.datetime({ offset: true }),
    project: slug.optional(),
    component: slug.optional(),
    /** The language code of the translation. */
    translation: languageCode.optional(),
  })
  // A scope the mirror could not place (a component without its project) names nothing.
  .refine((body) => body.component === undefined || body.project !== undefined, {
    message: 'component without project',
    path: ['component'],
  })
  .refine((body) => body.translation === undefined || body.component !== undefined, {
    message: 'translation without component',
    path: ['translation'],
  });

/** One change Weblate reported, as the coalesced sync needs it. */
export interface WebhookEvent {
  /** The `webhook-id` header (the change's UUID in hex): the key of replay protection. */
  id: string;
  /** Weblate's change id; null when the body was not recognised. */
  changeId: number | null;
  /** The action's display name; null when the body was not recognised. */
  action: string | null;
  /** The change's time exactly as sent (ISO 8601 with offset); null when not recognised. */
  timestamp: string | null;
  /** When the request arrived, in milliseconds since the epoch. */
  receivedAt: number;
  /** The scope of the change. All null: it names nothing, so everything that changed is read. */
  project: string | null;
  component: string | null;
  language: string | null;
  /** False for a signed body that is JSON but not of the expected shape (see parseWebhookEvent). */
  isRecognised: boolean;
}

export type ParseWebhookResult =
  | { kind: 'not_json' }
  | { kind: 'recognised'; event: WebhookEvent }
  /** `problems`: where the body differs from the schema (paths and codes, no values). */
  | { kind: 'unrecognised'; event: WebhookEvent; problems: string[] };

/**
 * Parses a signed body. Not JSON: `not_json` (answered 400). JSON of another shape: the event
 * is still accepted, as one that names nothing (`unrecognised`): Weblate signed it, so a change
 * did happen, and a sync of everything that changed loses none of it, where refusing would lose
 * it until the next scheduled sync. The receiver logs a warning and counts it
 * (weblate_mirror_webhook_unrecognised_bodies_total), since it means Weblate sends something
 * this version of the mirror does not understand.
 */
export function parseWebhookEvent(
  body: string,
  meta: { id: string; receivedAt: number },
): ParseWebhookResult {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'not_json' };
  }
  const parsed = webhookBodySchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.code}`);
    return {
      kind: 'unrecognised',
      problems,
      event: {
        ...meta,
        changeId: null,
        action: null,
        timestamp: null,
        project: null,
        component: null,
        language: null,
        isRecognised: false,
      },
    };
  }
  const data = parsed.data;
  return {
    kind: 'recognised',
    event: {
      ...meta,
      changeId: data.change_id,
      action: data.action,
      timestamp: data.timestamp,
      project: data.project ?? null,
      component: data.component ?? null,
      language: data.translation ?? null,
      isRecognised: true,
    },
  };
}
