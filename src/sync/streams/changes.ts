import type { RawJson } from '../../db/database.ts';
import { recordChangeActions, type SeenAction } from '../../db/queries/change-actions.ts';
import { type ChangeRow, upsertChanges } from '../../db/queries/records.ts';
import { type WeblateChange, weblateChange } from '../../weblate/schemas.ts';
import {
  componentSlugFromUrl,
  translationPathFromUrl,
  unitIdFromUrl,
  urlKey,
  usernameFromUrl,
} from '../../weblate/urls.ts';
import type { SyncContext } from '../context.ts';
import { PAGE_SIZE, readPages } from '../read.ts';
import type { ProjectRef } from './projects.ts';

/** Translations and components of this sync by API URL, to attribute changes to them. */
export interface ChangeLookup {
  translations: Map<
    string,
    { id: number; componentId: number; componentSlug: string; languageCode: string }
  >;
  components: Map<string, { id: number; slug: string }>;
}

/**
 * Transforms one change of `project` into its row (pure). Changes carry no project field,
 * so the project comes from the list that was read; translation and component are looked
 * up by URL, or read from the URL when the object is not (or no longer) mirrored.
 */
export function toChangeRow(
  record: WeblateChange,
  raw: RawJson,
  project: ProjectRef,
  lookup: ChangeLookup,
): ChangeRow {
  const translation = record.translation
    ? lookup.translations.get(urlKey(record.translation))
    : undefined;
  const component = record.component ? lookup.components.get(urlKey(record.component)) : undefined;
  const path = translation ? null : translationPathFromUrl(record.translation);
  return {
    id: record.id,
    action: record.action,
    action_name: record.action_name ?? null,
    unit_id: unitIdFromUrl(record.unit),
    translation_id: translation?.id ?? null,
    component_id: translation?.componentId ?? component?.id ?? null,
    project_slug: project.slug,
    component_slug:
      translation?.componentSlug ??
      component?.slug ??
      path?.component ??
      componentSlugFromUrl(record.component),
    language_code: translation?.languageCode ?? path?.language ?? null,
    user_name: usernameFromUrl(record.user),
    author_name: usernameFromUrl(record.author),
    target: record.target ?? null,
    old: record.old ?? null,
    details: record.details ?? null,
    timestamp: record.timestamp,
    url: record.url ?? null,
    unit_url: record.unit ?? null,
    translation_url: record.translation ?? null,
    component_url: record.component ?? null,
    raw,
  };
}

/** Mirrors a project's change history (all its components and translations) page by page. */
export async function syncProjectChanges(
  ctx: SyncContext,
  project: ProjectRef,
  lookup: ChangeLookup,
): Promise<void> {
  const pages = readPages(ctx, project.changesUrl, {
    resource: 'changes',
    schema: weblateChange,
    pageSize: PAGE_SIZE.standard,
  });
  for await (const { items } of pages) {
    const rows = items.map((i) => toChangeRow(i.record, i.raw, project, lookup));
    ctx.tally.wrote('changes', await upsertChanges(ctx.db, rows));
    await recordChangeActions(ctx.db, actionsSeen(items.map((i) => i.record)));
  }
}

function actionsSeen(changes: WeblateChange[]): SeenAction[] {
  const byAction = new Map<number, SeenAction>();
  for (const change of changes) {
    const seen = byAction.get(change.action);
    if (!seen) {
      byAction.set(change.action, {
        action: change.action,
        apiName: change.action_name ?? null,
        firstSeenAt: change.timestamp,
        lastSeenAt: change.timestamp,
      });
    } else {
      // Timestamps may carry different offsets, so compare instants, not strings.
      if (Date.parse(change.timestamp) < Date.parse(seen.firstSeenAt))
        seen.firstSeenAt = change.timestamp;
      if (Date.parse(change.timestamp) > Date.parse(seen.lastSeenAt))
        seen.lastSeenAt = change.timestamp;
    }
  }
  return [...byAction.values()];
}
