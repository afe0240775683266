import type { RenderedDigest, WatchEvent, WatchMessage } from '../../../src/watch/model.ts';

/** An event whose names come from a hostile Weblate: markup, mrkdwn links, Markdown links. */
export function hostileEvent(overrides: Partial<WatchEvent> = {}): WatchEvent {
  return {
    key: 'readiness/ready-90/evil<b>&co/de#1/fired',
    alertKey: 'readiness/ready-90/evil<b>&co/de',
    type: 'fired',
    rule: 'ready-90',
    ruleType: 'readiness',
    occurredAt: '2026-11-25T10:00:00.123456Z',
    title:
      'evil<b>&co / de reached 90.0 % <!channel> <https://evil.example|click> [x](https://evil.example) Příliš žluťoučký 🐎',
    project: 'evil<b>&co',
    language: 'de',
    figures: {
      translated_percent: '90.1',
      strings_left: '12',
      total_words: '12345678901234567890',
      days: 7,
      level: null,
    },
    url: 'https://weblate.example/projects/evil/-/de/',
    dataAsOf: '2026-11-25T09:58:00.000001Z',
    ...overrides,
  };
}

export function eventMessage(overrides: Partial<WatchEvent> = {}): WatchMessage {
  return { kind: 'event', event: hostileEvent(overrides) };
}

export function digestMessage(): WatchMessage {
  const digest: RenderedDigest = {
    key: 'digest/week/2026-11-23',
    every: 'week',
    from: '2026-11-23',
    to: '2026-11-29',
    subject: 'Weblate week 2026-11-23 – 2026-11-29: 3 languages moved',
    text: 'Moved\n- de: +12 strings\n',
    html: '<p>Moved</p><ul><li>de: +12 strings</li></ul>',
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Moved*\n• de: +12 strings' } }],
    document: {
      every: 'week',
      from: '2026-11-23',
      to: '2026-11-29',
      moved: [{ language: 'de', strings: 12 }],
    },
  };
  return { kind: 'digest', digest };
}
