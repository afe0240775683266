import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  parseRelease,
  renderChange,
  renderComponent,
  renderProject,
  renderTranslation,
  renderUnit,
  type RunningSimulator,
  type SimChange,
  siteLinks,
  startSimulator,
} from '../../src/simulator/index.ts';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, units: 600, changes: 900, users: 3 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  sim.setCompat({});
  sim.setWebhook(null);
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${sim.url}api/${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Listed {
  results: Array<Record<string, unknown>>;
}

/** A user with a subscription of `scope` (30 project, 40 component). */
function subscriber(scope: number) {
  for (const user of sim.instance.users) {
    const subscription = user.subscriptions.find((s) => s.scope === scope);
    if (subscription !== undefined) return { user, subscription };
  }
  throw new Error(`no subscription of scope ${scope} in the generated data`);
}

describe('the release the simulator answers as', () => {
  it('is read from a release number', () => {
    expect(['5.14.3', '5.15', '2026.10.1', '2026', '6.0'].map(parseRelease)).toEqual([
      '5.14',
      '5.15',
      '2026',
      '2026',
      null,
    ]);
  });

  it('links a subscription’s project or component from 5.15, and nests it before', async () => {
    for (const scope of [30, 40]) {
      const { user, subscription } = subscriber(scope);
      const field = scope === 30 ? 'project' : 'component';
      const find = async () =>
        (
          (await get(`users/${user.username}/notifications/`)).body as unknown as Listed
        ).results.find((r) => r.id === subscription.id)!;
      const nested = (await find())[field] as Record<string, unknown>;
      expect(typeof nested.url).toBe('string');
      sim.setCompat({ release: '5.15' });
      const linked = await find();
      expect(linked[field]).toBe(nested.url);
      expect(linked[scope === 30 ? 'component' : 'project']).toBeNull();
      sim.setCompat({});
    }
  });

  it('sends the unit fields of 2026, and whether a unit was translated automatically', async () => {
    const [automatic, edited] = sim.instance.units.filter(
      (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
    );
    sim.mutate.editUnits([automatic!.id], { automatic: true });
    sim.mutate.editUnits([edited!.id]);
    const before = (await get(`units/${automatic!.id}/`)).body;
    expect(before).not.toHaveProperty('automatically_translated');
    sim.setCompat({ release: '2026' });
    const unit = (await get(`units/${automatic!.id}/`)).body;
    expect(unit).toMatchObject({
      ...before,
      tbx_terms: {},
      translation_parent: null,
      effective_source: before.source,
      effective_previous_source: [before.previous_source],
      automatically_translated: true,
    });
    expect(unit.screenshots_url).toBe(`${sim.url}api/units/${automatic!.id}/screenshots/`);
    expect((await get(`units/${edited!.id}/`)).body.automatically_translated).toBe(false);
    // A person's edit after the automatic one.
    sim.mutate.editUnits([automatic!.id]);
    expect((await get(`units/${automatic!.id}/`)).body.automatically_translated).toBe(false);
  });

  it('sends the change and project fields of 2026', async () => {
    const change = sim.instance.changes[0]!;
    const project = sim.instance.projects[0]!;
    const before = (await get(`projects/${project.slug}/`)).body;
    expect(before).toHaveProperty('set_language_team');
    expect(before).toHaveProperty('credits_url');
    sim.setCompat({ release: '2026' });
    expect((await get(`changes/${change.id}/`)).body).toMatchObject({ addon: null, alert: null });
    const after = (await get(`projects/${project.slug}/`)).body;
    expect(after).not.toHaveProperty('set_language_team');
    expect(after).not.toHaveProperty('credits_url');
    expect(after.workspace).toBeNull();
    expect(after.reports_url).toBe(`${sim.url}api/projects/${project.slug}/reports/`);
  });

  it('refuses an Authorization header of another scheme from 2026, and serves it before', async () => {
    const basic = { authorization: 'Basic dXNlcjpwYXNz' };
    expect((await get('projects/', basic)).status).toBe(200);
    sim.setCompat({ release: '2026' });
    expect(await get('projects/', basic)).toEqual({
      status: 401,
      body: {
        type: 'client_error',
        errors: [
          {
            code: 'authentication_failed',
            detail: 'Unsupported authentication scheme. Use Token or Bearer.',
            attr: null,
          },
        ],
      },
    });
    expect((await get('projects/', { authorization: 'Token anything' })).status).toBe(200);
    expect((await get('projects/')).status).toBe(200);
  });
});

/** Field names as a serializer lists them, written as one text. */
const fields = (text: string): string[] => text.trim().split(/\s+/);

/** Weblate 5.14.3's serializers (weblate/api/serializers.py), as the simulator sends them. */
const FIELDS_5_14 = {
  project: fields(`
    name slug id web web_url url check_flags components_list_url repository_url statistics_url
    categories_url changes_list_url languages_url labels_url credits_url lock_url
    translation_review source_review commit_policy set_language_team instructions enable_hooks
    language_aliases secondary_language enforced_2fa machinery_settings locked`),
  // Without zipfile, docfile and disable_autoshare, which DRF skips (nothing on the model).
  component: fields(`
    name slug id source_language project vcs repo git_export branch push_branch filemask
    screenshot_filemask template edit_template intermediate new_base file_format
    file_format_params license license_url agreement web_url url repository_url
    translations_url statistics_url lock_url links_url changes_list_url task_url credits_url
    new_lang language_code_style push check_flags priority enforced_checks restricted repoweb
    report_source_bugs merge_style commit_message add_message delete_message merge_message
    addon_message pull_message allow_translation_propagation manage_units enable_suggestions
    suggestion_voting suggestion_autoaccept push_on_commit commit_pending_age auto_lock_error
    language_regex key_filter secondary_language variant_regex addons is_glossary
    glossary_color category linked_component locked`),
  translation: fields(`
    language component language_code id filename revision web_url share_url translate_url url
    is_template is_source total total_words translated translated_words translated_percent
    fuzzy fuzzy_words fuzzy_percent failing_checks failing_checks_words failing_checks_percent
    have_suggestion have_comment last_change last_author repository_url file_url
    statistics_url changes_list_url units_list_url`),
  unit: fields(`
    translation language_code source previous_source target id_hash content_hash location
    context note flags labels state fuzzy translated approved position has_suggestion
    has_comment has_failing_check num_words source_unit priority id web_url url explanation
    extra_flags pending timestamp last_updated`),
  change: fields(`
    unit component translation user author timestamp action target old details id
    action_name url`),
};

/** The message templates of 2026's projects and components, each inherited and in effect. */
const MESSAGES_2026 = `
    commit_message inherit_commit_message effective_commit_message
    add_message inherit_add_message effective_add_message
    delete_message inherit_delete_message effective_delete_message
    merge_message inherit_merge_message effective_merge_message
    addon_message inherit_addon_message effective_addon_message
    pull_message inherit_pull_message effective_pull_message`;

/** Weblate 2026.10.1's serializers, in their order. */
const FIELDS_2026 = {
  // ProjectSerializer: 72.
  project: fields(`
    name slug id web web_url url check_flags effective_check_flags components_list_url
    repository_url statistics_url metrics_url categories_url changes_list_url languages_url
    labels_url reports_url lock_url translation_review source_review commit_policy workspace
    instructions enable_hooks language_aliases access_control public_sharing use_shared_tm
    contribute_shared_tm use_workspace_tm contribute_workspace_tm autoclean_tm
    license inherit_license effective_license agreement inherit_agreement effective_agreement
    new_lang inherit_new_lang effective_new_lang
    language_code_style inherit_language_code_style effective_language_code_style
    secondary_language inherit_secondary_language effective_secondary_language
    ${MESSAGES_2026}
    enforced_2fa machinery_settings locked announcements_url
    enforced_checks inherit_enforced_checks effective_enforced_checks`),
  // ComponentSerializer: 100, less zipfile, docfile, disable_autoshare (skipped by DRF) and
  // from_component (write-only).
  component: fields(`
    name slug id source_language project vcs vcs_params repo git_export branch push_branch
    filemask screenshot_filemask template edit_template intermediate new_base file_format
    file_format_params license inherit_license effective_license license_url
    announcements_url agreement inherit_agreement effective_agreement web_url url
    repository_url translations_url statistics_url lock_url links_url changes_list_url
    task_url reports_url new_lang inherit_new_lang effective_new_lang
    language_code_style inherit_language_code_style effective_language_code_style
    push check_flags effective_check_flags priority
    enforced_checks inherit_enforced_checks effective_enforced_checks
    restricted repoweb repoweb_translations report_source_bugs merge_style
    ${MESSAGES_2026}
    allow_translation_propagation hide_glossary_matches contribute_project_tm manage_units
    enable_suggestions suggestion_voting suggestion_autoaccept push_on_commit push_on_update
    commit_pending_age auto_lock_error language_regex key_filter
    secondary_language inherit_secondary_language effective_secondary_language
    variant_regex addons is_glossary glossary_color category linked_component locked`),
  // TranslationSerializer: 33.
  translation: fields(`
    language component language_code id filename revision web_url share_url translate_url url
    is_template is_source total total_words translated translated_words translated_percent
    fuzzy fuzzy_words fuzzy_percent failing_checks failing_checks_words failing_checks_percent
    have_suggestion have_comment last_change last_author repository_url file_url
    statistics_url changes_list_url units_list_url announcements_url`),
  // UnitSerializer: 38.
  unit: fields(`
    tbx_terms translation language_code source previous_source target id_hash content_hash
    location context note flags labels state fuzzy translated approved position
    has_suggestion has_comment has_failing_check num_words source_unit screenshots_url
    translation_parent effective_source effective_previous_source effective_source_language
    priority id web_url url explanation extra_flags pending timestamp last_updated
    automatically_translated`),
  // ChangeSerializer: 15.
  change: fields(`
    unit component translation addon user author alert timestamp action target old details id
    action_name url`),
  // AlertSerializer: 9.
  alert: fields(`
    name timestamp updated severity details category dismissed_at dismissed_by
    dismissal_reason`),
};

describe('the records of each release', () => {
  const records = (release: '5.14' | '2026') => {
    const { instance } = sim;
    const base = siteLinks(sim.url, release);
    return {
      project: renderProject(instance, base, instance.projects[0]!),
      component: renderComponent(instance, base, instance.components[0]!),
      translation: renderTranslation(instance, base, instance.translations[1]!),
      unit: renderUnit(instance, base, instance.units[0]!),
      change: renderChange(instance, base, instance.changes[0]!),
    };
  };

  it('have the fields of Weblate 5.14.3’s serializers, in their order, as before', () => {
    const found = Object.fromEntries(
      Object.entries(records('5.14')).map(([name, record]) => [name, Object.keys(record)]),
    );
    expect(found).toEqual(FIELDS_5_14);
  });

  it('have the fields of Weblate 2026.10.1’s serializers, in their order', () => {
    const found = records('2026');
    for (const name of ['project', 'component', 'translation', 'unit', 'change'] as const)
      expect(Object.keys(found[name]), name).toEqual(FIELDS_2026[name]);
    expect(Object.keys(found.component.project as object)).toEqual(FIELDS_2026.project);
    expect(Object.keys(found.translation.component as object)).toEqual(FIELDS_2026.component);
    expect(FIELDS_2026.project).toHaveLength(72);
    expect(FIELDS_2026.component).toHaveLength(96);
  });

  it('leave out the nested project or component in scoped lists of 2026 alone', async () => {
    sim.setCompat({ release: '2026' });
    const { project, component } = sim.instance.components.map((c) => ({
      component: c,
      project: sim.instance.index.projectById.get(c.projectId)!,
    }))[0]!;
    const components = (await get(`projects/${project.slug}/components/`)).body as unknown;
    const translations = (await get(`components/${project.slug}/${component.slug}/translations/`))
      .body as unknown;
    expect(Object.keys((components as Listed).results[0]!)).toEqual(
      FIELDS_2026.component.filter((f) => f !== 'project'),
    );
    expect(Object.keys((translations as Listed).results[0]!)).toEqual(
      FIELDS_2026.translation.filter((f) => f !== 'component'),
    );
  });

  it('give the settings of 2026 their JSON types: inherited, effective, links', () => {
    const { project, component, translation } = records('2026');
    const source = sim.instance.components[0]!;
    const path = `${project.slug as string}/${source.slug}/`;
    expect(project).toMatchObject({
      workspace: null,
      access_control: 0,
      public_sharing: false,
      license: '',
      inherit_license: true,
      effective_license: '',
      secondary_language: null,
      effective_secondary_language: null,
      enforced_checks: [],
      effective_enforced_checks: [],
      effective_check_flags: project.check_flags,
      metrics_url: `${sim.url}api/projects/${project.slug as string}/metrics/`,
      announcements_url: `${sim.url}api/projects/${project.slug as string}/announcements/`,
    });
    for (const name of ['commit_message', 'add_message', 'pull_message']) {
      expect(typeof project[name]).toBe('string');
      expect(project[`effective_${name}`]).toBe(project[name]);
      expect(component[`effective_${name}`]).toBe(project[name]);
      expect(component[`inherit_${name}`]).toBe(true);
    }
    // A component's own license and enforced checks are not inherited, and are in effect.
    expect(component).toMatchObject({
      vcs_params: {},
      license: source.license,
      inherit_license: source.license === '',
      effective_license: source.license,
      enforced_checks: source.enforcedChecks,
      inherit_enforced_checks: source.enforcedChecks.length === 0,
      effective_enforced_checks: source.enforcedChecks,
      effective_check_flags: source.checkFlags,
      repoweb_translations: '',
      push_on_update: true,
      reports_url: `${sim.url}api/components/${path}reports/`,
      announcements_url: `${sim.url}api/components/${path}announcements/`,
    });
    expect(translation.announcements_url).toBe(`${translation.url as string}announcements/`);
  });

  it('link the add-on of an add-on change, and carry the alert of an alert change, in 2026', () => {
    const { instance } = sim;
    const base = siteLinks(sim.url, '2026');
    const withAddon = instance.components.find((c) => c.id % 4 === 0)!;
    const template = instance.changes[0]!;
    const change = (patch: Partial<SimChange>): SimChange => ({ ...template, ...patch });
    const addonChange = change({ action: 61, componentId: withAddon.id });
    expect(renderChange(instance, base, addonChange).addon).toBe(
      `${sim.url}api/addons/${withAddon.id}/`,
    );
    expect(renderChange(instance, base, { ...addonChange, action: 62 }).addon).toBeNull();
    const triggered = renderChange(
      instance,
      base,
      change({ action: 47, user: null, details: { alert: 'MissingLicense', fingerprint: '' } }),
    ).alert as Record<string, unknown>;
    expect(Object.keys(triggered)).toEqual(FIELDS_2026.alert);
    expect(triggered).toMatchObject({
      name: 'MissingLicense',
      timestamp: template.timestamp,
      severity: 100,
      details: {},
      dismissed_at: null,
      dismissed_by: null,
      dismissal_reason: '',
    });
    const dismissed = renderChange(
      instance,
      base,
      change({
        action: 103,
        user: 'anonymous',
        details: {
          alert: 'UnusedComponent',
          alert_snapshot: { severity: 50, category: 'configuration', details: { days: 3 } },
          reason: 'kept on purpose',
        },
      }),
    ).alert as Record<string, unknown>;
    expect(Object.keys(dismissed)).toEqual(FIELDS_2026.alert);
    expect(dismissed).toMatchObject({
      severity: 50,
      details: { days: 3 },
      dismissed_at: template.timestamp,
      dismissed_by: `${sim.url}api/users/anonymous/`,
      dismissal_reason: 'kept on purpose',
    });
    expect(renderChange(instance, base, template).alert).toBeNull();
  });
});

describe('webhooks of the release', () => {
  const SECRET = Buffer.alloc(32, 7).toString('base64');

  /** A receiver that keeps each body as bytes with its headers. */
  async function receiver() {
    const received: Array<{ body: Buffer; headers: IncomingMessage['headers'] }> = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks), headers: request.headers });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  /** Edits a unit to a text outside ASCII and returns the body its webhook carried. */
  async function editAndReceive(release: '5.14' | '2026') {
    const hook = await receiver();
    try {
      sim.setCompat({ release });
      sim.setWebhook({ url: hook.url, secret: SECRET, events: [2, 5] });
      const unit = sim.instance.units.find(
        (u) => u.state === 20 && !sim.instance.index.translationById.get(u.translationId)!.isSource,
      )!;
      sim.mutate.editUnits([unit.id], { target: 'Öffnen — „Menü“ 🚪' });
      await sim.webhooksIdle();
      expect(hook.received.length).toBeGreaterThan(0);
      return { unit, ...hook.received.at(-1)! };
    } finally {
      await hook.close();
    }
  }

  function signatureOf(id: string, timestamp: string, body: Buffer): string {
    const key = Buffer.from(SECRET, 'base64');
    const signed = Buffer.concat([Buffer.from(`${id}.${Math.floor(Number(timestamp))}.`), body]);
    return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  }

  it('are compact UTF-8 with the unit’s context from 2026, signed over the bytes sent', async () => {
    const { unit, body, headers } = await editAndReceive('2026');
    const text = body.toString('utf8');
    expect(text).toContain('Öffnen — „Menü“ 🚪');
    expect(text).not.toContain(', "');
    const payload = JSON.parse(text) as Record<string, unknown>;
    expect(JSON.stringify(payload)).toBe(text);
    expect(payload.context).toBe(unit.context);
    const id = String(headers['webhook-id']);
    expect(headers['webhook-signature']).toBe(
      signatureOf(id, String(headers['webhook-timestamp']), body),
    );
  });

  it('are Python’s json.dumps, ASCII only, before', async () => {
    const { body } = await editAndReceive('5.14');
    const text = body.toString('utf8');
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toContain('\\u00d6ffnen');
    expect(text).toContain('", "');
    expect(JSON.parse(text)).not.toHaveProperty('context');
  });
});
