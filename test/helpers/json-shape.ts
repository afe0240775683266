/**
 * The shape of JSON answers, to compare two servers that hold different data: each field's
 * path ("results[].component.slug", `[]` for array elements) with the JSON types seen there,
 * and the form of each link (which site, which path words, which query parameters).
 */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** Each path's types over every value seen at it. */
export type Shape = Map<string, Set<JsonType>>;

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return type;
  return 'object';
}

function add<T>(map: Map<string, Set<T>>, path: string, item: T): void {
  const set = map.get(path) ?? new Set<T>();
  set.add(item);
  map.set(path, set);
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Adds the shape of `value` (recursively: object fields, array elements) to `shape`. */
export function addShape(value: unknown, shape: Shape, path = ''): Shape {
  const type = jsonType(value);
  if (path !== '') add(shape, path, type);
  if (type === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>))
      addShape(child, shape, childPath(path, key));
  } else if (type === 'array') {
    for (const element of value as unknown[]) addShape(element, shape, `${path}[]`);
  }
  return shape;
}

/** Path segments of Weblate's routes; any other segment (a slug, code or id) reads `*`. */
const ROUTE_WORDS = new Set(
  [
    'api addons categories changes components credits engage file git labels languages links',
    'lock machinery_settings notifications projects repository statistics tasks translate',
    'translations units users -',
  ]
    .join(' ')
    .split(' '),
);

/**
 * The form of a link: `{site}` and its path with slugs and ids as `*`, then its query
 * parameters in order with their values left out; `{elsewhere}` for another site. Null
 * when `text` is no http(s) URL.
 */
export function linkForm(text: string, site: string): string | null {
  if (!/^https?:\/\//.test(text)) return null;
  if (!text.startsWith(site)) return '{elsewhere}';
  const url = new URL(text);
  const path = url.pathname
    .slice(new URL(site).pathname.length)
    .split('/')
    .map((segment) => (segment === '' || ROUTE_WORDS.has(segment) ? segment : '*'))
    .join('/');
  const keys = [...url.searchParams.keys()].map((key) => `${key}=…`);
  return `{site}${path}${keys.length === 0 ? '' : `?${keys.join('&')}`}`;
}

/** Adds the form of every link in `value` to `forms`, by path. */
export function addLinkForms(
  value: unknown,
  site: string,
  forms: Map<string, Set<string>>,
  path = '',
): Map<string, Set<string>> {
  if (typeof value === 'string') {
    const form = linkForm(value, site);
    if (form !== null) add(forms, path, form);
  } else if (Array.isArray(value)) {
    for (const element of value) addLinkForms(element, site, forms, `${path}[]`);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>))
      addLinkForms(child, site, forms, childPath(path, key));
  }
  return forms;
}

/** Field names with the reason each is exempt; a name matches the last segment of a path. */
export type Exemptions = Readonly<Record<string, string>>;

export interface ShapeRules {
  /** Fields that may be null on one side and a value on the other (data-dependent). */
  nullable: Exemptions;
  /** Free-form objects: only their own type is compared, not their keys. */
  opaque: Exemptions;
  /** Fields whose link forms may differ (what differs is data, not the server). */
  linkData: Exemptions;
}

function fieldName(path: string): string {
  return path.replace(/\[\]$/, '').split('.').at(-1) ?? path;
}

function parentOf(path: string): { parent: string; isElement: boolean } | null {
  if (path.endsWith('[]')) return { parent: path.slice(0, -2), isElement: true };
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : { parent: path.slice(0, dot), isElement: false };
}

/** Whether `shape` saw the container of `path` hold something (an object, an element). */
function hasContainer(shape: Shape, path: string): boolean {
  const parent = parentOf(path);
  if (parent === null) return true;
  return parent.isElement ? false : (shape.get(parent.parent)?.has('object') ?? false);
}

function isUnderOpaque(path: string, rules: ShapeRules): boolean {
  let current = parentOf(path);
  while (current !== null) {
    if (rules.opaque[fieldName(current.parent)] !== undefined) return true;
    current = parentOf(current.parent);
  }
  return false;
}

const list = (types: Set<JsonType> | undefined): string => [...(types ?? [])].sort().join('|');

function typesDiffer(path: string, real: Set<JsonType>, sim: Set<JsonType>, rules: ShapeRules) {
  if (list(real) === list(sim)) return false;
  if (rules.nullable[fieldName(path)] === undefined) return true;
  const [a, b] = [real, sim].map((types) => list(new Set([...types].filter((t) => t !== 'null'))));
  return a !== '' && b !== '' && a !== b;
}

/**
 * What differs between two shapes, as readable lines. A path seen on one side only is a
 * difference when the other side saw its container hold something (an object without
 * that key); an array that was always empty, or an object that was always null, on one side
 * leaves its contents unverified, and `unverified` collects those paths.
 */
export function compareShapes(
  real: Shape,
  sim: Shape,
  rules: ShapeRules,
  unverified: Set<string> = new Set(),
): string[] {
  const differences: string[] = [];
  const paths = [...new Set([...real.keys(), ...sim.keys()])].sort();
  for (const path of paths) {
    if (isUnderOpaque(path, rules)) continue;
    const [inReal, inSim] = [real.get(path), sim.get(path)];
    if (inReal !== undefined && inSim !== undefined) {
      if (typesDiffer(path, inReal, inSim, rules))
        differences.push(`${path}: real ${list(inReal)}, simulator ${list(inSim)}`);
      continue;
    }
    const [side, other, otherShape] =
      inReal === undefined ? ['simulator', 'real', real] : ['real', 'simulator', sim];
    if (hasContainer(otherShape, path)) {
      differences.push(`${path}: only in ${side} (${list(inReal ?? inSim)}), not in ${other}`);
    } else {
      unverified.add(path);
    }
  }
  return differences;
}

/** Link forms that differ at paths where both sides have links. */
export function compareLinkForms(
  real: Map<string, Set<string>>,
  sim: Map<string, Set<string>>,
  rules: ShapeRules,
): string[] {
  const differences: string[] = [];
  for (const [path, forms] of [...real].sort(([a], [b]) => a.localeCompare(b))) {
    const simForms = sim.get(path);
    if (simForms === undefined || rules.linkData[fieldName(path)] !== undefined) continue;
    const [a, b] = [[...forms].sort(), [...simForms].sort()];
    if (a.join(' ') !== b.join(' '))
      differences.push(`${path} links: real ${a.join(' ')}, simulator ${b.join(' ')}`);
  }
  return differences;
}
