import { toJsonText } from './json-text.ts';
import type { SimChange, SimInstance, SimUnit } from './model.ts';
import { renderChange, renderUnit } from './render-records.ts';
import { type LinkBase, siteLinks } from './urls.ts';

/**
 * Rendered JSON of units and changes, kept per instance: a list page is then a join of
 * cached texts. The simulator stands in for a remote Weblate, whose rendering costs the
 * mirror nothing; on a shared benchmark machine it should cost as little as possible.
 * Every mutation path bumps the generation (index updates and rebuilds do), which drops
 * the cache.
 */
interface Cache {
  generation: number;
  /** The LinkBase the texts were rendered for, as one string. */
  base: string;
  texts: Map<string, string>;
}

const caches = new WeakMap<SimInstance, Cache>();
const generations = new WeakMap<SimInstance, number>();

/** Marks every cached rendering of `instance` stale (call after changing its data). */
export function bumpRenderGeneration(instance: SimInstance): void {
  generations.set(instance, (generations.get(instance) ?? 0) + 1);
}

function cacheOf(instance: SimInstance, base: LinkBase): Map<string, string> {
  const generation = generations.get(instance) ?? 0;
  const key = `${base.site} ${base.format ?? ''} ${base.release}`;
  let cache = caches.get(instance);
  if (cache === undefined || cache.generation !== generation || cache.base !== key) {
    cache = { generation, base: key, texts: new Map() };
    caches.set(instance, cache);
  }
  return cache.texts;
}

function cached(instance: SimInstance, base: LinkBase, key: string, render: () => unknown): string {
  const texts = cacheOf(instance, base);
  let text = texts.get(key);
  if (text === undefined) {
    text = toJsonText(render());
    texts.set(key, text);
  }
  return text;
}

export function unitText(instance: SimInstance, base: LinkBase, unit: SimUnit): string {
  return cached(instance, base, `u${unit.id}`, () => renderUnit(instance, base, unit));
}

export function changeText(instance: SimInstance, base: LinkBase, change: SimChange): string {
  return cached(instance, base, `c${change.id}`, () => renderChange(instance, base, change));
}

/**
 * Renders every unit and change ahead of time for the site URL `site` (requests without a
 * `format` parameter, as the mirror sends them), so that serving lists costs little CPU.
 * The benchmark uses it: a real Weblate renders on its own machine, not on the two cores the
 * mirror and PostgreSQL are measured on.
 */
export function prerender(instance: SimInstance, site: string): void {
  const base = siteLinks(site);
  for (const unit of instance.units) unitText(instance, base, unit);
  for (const change of instance.changes) changeText(instance, base, change);
}
