import { describe, expect, it } from 'vitest';

import { parseWebhookEvent } from '../../src/webhooks/event.ts';
import { pythonJsonDumps, weblateChange } from '../helpers/webhooks.ts';

const meta = { id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', receivedAt: 1_764_064_800_000 };

describe('parseWebhookEvent', () => {
  it('reads a change as Weblate posts it, ignoring the keys the mirror does not use', () => {
    const body = pythonJsonDumps(weblateChange(4711, { category: 'docs', extra: { a: 1 } }));
    expect(parseWebhookEvent(body, meta)).toEqual({
      kind: 'recognised',
      event: {
        ...meta,
        changeId: 4711,
        action: 'Translation changed',
        timestamp: '2026-11-25T10:00:00.123456+00:00',
        project: 'demo',
        component: 'app',
        language: 'cs',
        isRecognised: true,
      },
    });
  });

  it('reads a change of a whole project or component, and one of the site', () => {
    const projectWide = { project: 'demo', component: undefined, translation: undefined };
    const site = { ...projectWide, project: undefined };
    for (const [overrides, scope] of [
      [{ translation: undefined }, { project: 'demo', component: 'app', language: null }],
      [projectWide, { project: 'demo', component: null, language: null }],
      [site, { project: null, component: null, language: null }],
      [{ translation: 'sr@latin' }, { language: 'sr@latin' }],
      [{ translation: 'pt_BR' }, { language: 'pt_BR' }],
    ] as const) {
      // JSON leaves out undefined keys, as Weblate leaves out empty ones.
      const body = JSON.stringify(weblateChange(1, overrides));
      const result = parseWebhookEvent(body, meta);
      expect(result.kind).toBe('recognised');
      expect(result).toMatchObject({ event: scope });
    }
  });

  it('reports a body that is not JSON', () => {
    for (const body of ['', 'change_id=1', '{"change_id": 1', '\u00ff\u00fe']) {
      expect(parseWebhookEvent(body, meta)).toEqual({ kind: 'not_json' });
    }
  });

  it('turns JSON of another shape into an event that names nothing, with the problems', () => {
    for (const value of [
      weblateChange(1, { change_id: '1' }),
      weblateChange(1, { timestamp: 'yesterday' }),
      weblateChange(1, { project: '../admin' }),
      weblateChange(1, { project: undefined }),
      weblateChange(1, { component: undefined }),
      weblateChange(1, { action: undefined }),
      [1, 2],
      null,
      'text',
    ]) {
      const result = parseWebhookEvent(JSON.stringify(value), meta);
      expect(result).toMatchObject({
        kind: 'unrecognised',
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
      });
      if (result.kind !== 'unrecognised') continue;
      expect(result.problems.length).toBeGreaterThan(0);
      // Paths and codes only: no value of the body.
      expect(result.problems.join(' ')).not.toMatch(/admin|yesterday|Příliš/);
    }
    const result = parseWebhookEvent(JSON.stringify(weblateChange(1, { project: '../x' })), meta);
    expect(result).toMatchObject({ problems: ['project: invalid_format'] });
  });
});
