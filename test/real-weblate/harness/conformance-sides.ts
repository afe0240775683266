/**
 * The two servers of the conformance test (simulator-conformance.test.ts): how each is
 * asked, and which of its objects stand for "a project", "a translation" and so on.
 */
import { Agent, request } from 'undici';

import { toUtcMicros } from '../../../src/lib/timestamps.ts';
import type { RunningSimulator } from '../../../src/simulator/index.ts';
import type { WeblateInstance } from './instance.ts';

/** One server, and the objects of its data that the test's paths name. */
export interface Side {
  /** Base URL with a trailing slash: where requests go and where links must point. */
  site: string;
  token: string;
  project: string;
  /** `<project>/<component>`, a component with a source and a target translation. */
  component: string;
  /** `<project>/<component>/<language>` of its source translation and of a target one. */
  source: string;
  target: string;
  sourceCode: string;
  targetCode: string;
  /** A user with subscriptions of every scope, project and component ones included. */
  user: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

/** A new connection per request, as the tier's own API access does (harness/api.ts). */
const NO_KEEP_ALIVE = new Agent({ pipelining: 0 });

/** GET of `path` under the side's /api/ (or an absolute URL), with its token. */
export async function fetchAnswer(
  side: Side,
  path: string,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const url = /^https?:/.test(path) ? path : `${side.site}api/${path}`;
  const response = await request(url, {
    headers: { authorization: `Token ${side.token}`, accept: 'application/json', ...extraHeaders },
    dispatcher: NO_KEEP_ALIVE,
  });
  const text = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, headers, json: text === '' ? null : JSON.parse(text) };
}

/** Every page of a list at `pageSize`, following `next`. */
export async function walkPages(side: Side, path: string, pageSize: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  const first = new URL(`${side.site}api/${path}`);
  first.searchParams.set('page_size', String(pageSize));
  let next: string | null = first.href;
  while (next !== null && answers.length < 100) {
    const answer = await fetchAnswer(side, next);
    if (answer.status !== 200) throw new Error(`${next} answered ${answer.status}`);
    answers.push(answer);
    next = (answer.json as { next: string | null }).next;
  }
  return answers;
}

/** Headers whose presence must agree (values differ: clocks, budgets already spent). */
const PRESENT = ['date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
/** Headers whose values must agree. */
const EQUAL = ['allow', 'content-type', 'vary', 'www-authenticate', 'x-ratelimit-limit'];

export function compareHeaders(real: Answer, sim: Answer): string[] {
  const differences: string[] = [];
  for (const name of PRESENT) {
    const [a, b] = [real.headers[name] !== undefined, sim.headers[name] !== undefined];
    if (a !== b) differences.push(`header ${name}: ${a ? 'only real' : 'only simulator'} sends it`);
  }
  for (const name of EQUAL) {
    const [a, b] = [real.headers[name], sim.headers[name]];
    if (a !== b)
      differences.push(`header ${name}: real ${a ?? '(none)'}, simulator ${b ?? '(none)'}`);
  }
  return differences;
}

/** The simulator's objects: a component with a source and a target translation, a user. */
export function simulatorSide(sim: RunningSimulator, token: string): Side {
  const { index, projects, users } = sim.instance;
  // The project with the most components, so that its list shows an order.
  const componentsOf = (id: number) => index.componentsByProject.get(id) ?? [];
  const project = [...projects].sort(
    (a, b) => componentsOf(b.id).length - componentsOf(a.id).length,
  )[0]!;
  const component = componentsOf(project.id).find(
    (c) => (index.translationsByComponent.get(c.id) ?? []).length > 1,
  )!;
  const translations = index.translationsByComponent.get(component.id)!;
  const source = translations.find((t) => t.isSource)!;
  const target = translations.find((t) => !t.isSource)!;
  const codeOf = (languageId: number) => index.languageById.get(languageId)!.code;
  const scopes = (u: (typeof users)[number]) => new Set(u.subscriptions.map((s) => s.scope)).size;
  const user = [...users].sort((a, b) => scopes(b) - scopes(a))[0]!;
  const path = `${project.slug}/${component.slug}`;
  return {
    site: sim.url,
    token,
    project: project.slug,
    component: path,
    source: `${path}/${codeOf(source.languageId)}`,
    target: `${path}/${codeOf(target.languageId)}`,
    sourceCode: codeOf(source.languageId),
    targetCode: codeOf(target.languageId),
    user: user.username,
  };
}

/**
 * Changes in bulk (like a scan of a repository would log them), so that a standard list has
 * more than its largest page; subscriptions of project and component scope, which the seed
 * cannot make through the API; an enforced check, which the seed has nowhere (a PATCH of
 * the component answers 500 "select_for_update cannot be used outside of a transaction" in
 * 5.14.3), the component's own since 2026 (not inherited from the project); and, where changes
 * carry their alert (2026), an alert. One Django start-up for all of it.
 */
const SHELL_SETUP = `
from weblate.accounts.models import Subscription
from weblate.auth.models import User
from weblate.trans.actions import ActionEvents
from weblate.trans.models import Change, Component, Translation
t = Translation.objects.get(component__project__slug='cirrus', component__slug='docs', language__code='fr')
Change.objects.bulk_create([Change(action=ActionEvents.UPDATE, translation=t, component=t.component, project=t.component.project, language=t.language) for i in range(1000)])
alice = User.objects.get(username='alice')
app = Component.objects.get(project__slug='aurora', slug='app')
Subscription.objects.create(user=alice, notification='NewStringNotificaton', scope=30, frequency=1, project=app.project)
Subscription.objects.create(user=alice, notification='NewTranslationNotificaton', scope=40, frequency=2, component=app)
fields = {f.name for f in Component._meta.get_fields()}
own = {'inherit_enforced_checks': False} if 'inherit_enforced_checks' in fields else {}
Component.objects.filter(pk=app.pk).update(enforced_checks=['same'], **own)
if 'alert' in {f.name for f in Change._meta.get_fields()}:
    app.add_alert('BrokenProjectURL', error='Name or service not known')
`;

/**
 * The seeded Weblate, with more than one default page (200) of units (strings added to the
 * Android component, each a unit in every one of its translations) and an enforced check.
 */
export async function prepareWeblate(instance: WeblateInstance): Promise<Side> {
  await instance.manage(['shell', '-c', SHELL_SETUP]);
  const unitCount = async () => (await instance.admin.get<{ count: number }>('units/')).count;
  for (let i = 0; (await unitCount()) <= 220 && i < 20; i++) {
    await instance.admin.post('translations/aurora/android/en/units/', {
      key: `conformance_${i}`,
      value: [`Conformance string ${i}`],
    });
  }
  return {
    site: instance.url,
    token: instance.tokens.admin!,
    project: 'aurora',
    component: 'aurora/app',
    source: 'aurora/app/en',
    target: 'aurora/app/cs',
    sourceCode: 'en',
    targetCode: 'cs',
    user: 'alice',
  };
}

/* What the tests read of the answers. */

export interface TranslationRecord {
  url: string;
  changes_list_url: string;
  last_change: string | null;
  last_author: string | null;
}
export interface ChangeRecord {
  timestamp: string;
  author: string | null;
}

export async function listAll<T>(side: Side, path: string): Promise<T[]> {
  const pages = await walkPages(side, path, 1000);
  return pages.flatMap((page) => (page.json as { results: T[] }).results);
}

/** The full name of the user a change's author link names (what last_author shows). */
export async function displayName(
  side: Side,
  authorUrl: string | null | undefined,
): Promise<string | null> {
  if (authorUrl === null || authorUrl === undefined) return null;
  return ((await fetchAnswer(side, authorUrl)).json as { full_name: string }).full_name;
}

export async function pageSize(side: Side, path: string): Promise<{ count: number; size: number }> {
  const body = (await fetchAnswer(side, path)).json as { count: number; results: unknown[] };
  return { count: body.count, size: body.results.length };
}

export function relativeLink(side: Side, answer: Answer, key: 'next' | 'previous'): string | null {
  const link = (answer.json as Record<string, string | null>)[key] ?? null;
  return link === null || !link.startsWith(side.site)
    ? link
    : `{site}${link.slice(side.site.length)}`;
}

/** How a list is ordered, told from all its records. */
export async function orderOf(side: Side, path: string): Promise<string> {
  const pages = await walkPages(side, path, 1000);
  const results = pages.flatMap(
    (a) => (a.json as { results: Array<Record<string, unknown>> }).results,
  );
  if (results.length < 2) return 'too short to tell';
  const column = (key: string) => results.map((r) => r[key] as string | number);
  const isSorted = (values: Array<string | number>, strict: boolean, descending: boolean) =>
    values.every((v, i) => {
      if (i === 0) return true;
      const [a, b] = descending ? [values[i - 1]!, v] : [v, values[i - 1]!];
      return strict ? a > b : a >= b;
    });
  if ('action' in results[0]!) {
    // The simulator writes several UTC offsets: compare instants, not texts.
    const instants = column('timestamp').map((text) => toUtcMicros(String(text)));
    return isSorted(instants, false, true) ? 'newest first' : 'unordered';
  }
  if ('id' in results[0]!)
    return isSorted(column('id'), true, false) ? 'ids ascending' : 'unordered';
  // Statistics rows carry no id: they follow the component's translations.
  const translations = await walkPages(side, `components/${side.component}/translations/`, 1000);
  const codes = translations.flatMap((a) =>
    (a.json as { results: Array<{ language_code: string }> }).results.map((t) => t.language_code),
  );
  return JSON.stringify(column('code')) === JSON.stringify(codes)
    ? 'translation ids ascending'
    : 'unordered';
}

export function compareErrorBodies(name: string, real: unknown, sim: unknown): string[] {
  const errors = (body: unknown) =>
    ((body as { errors?: Array<Record<string, unknown>> }).errors ?? []).map((e) => ({
      code: e.code,
      attr: e.attr,
      // The query parsers differ in wording; every other detail is Weblate's fixed text.
      detail: name === 'malformed q' ? 'parse error' : e.detail,
    }));
  const [a, b] = [JSON.stringify(errors(real)), JSON.stringify(errors(sim))];
  return a === b ? [] : [`errors: real ${a}, simulator ${b}`];
}
