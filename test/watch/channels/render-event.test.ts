import { describe, expect, it } from 'vitest';

import { messageIdOf, smtpTargetOf } from '../../../src/watch/channels/email.ts';
import { parseRetryAfter } from '../../../src/watch/channels/http.ts';
import { checkChannelSpec } from '../../../src/watch/channels/index.ts';
import {
  escapeMarkdown,
  escapeMrkdwn,
  renderEventHtml,
  renderEventMarkdown,
  renderEventSlack,
  renderEventText,
  safeLink,
} from '../../../src/watch/channels/render-event.ts';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from '../../../src/watch/channels/retry.ts';
import { TEST_SECRET } from '../../helpers/webhooks.ts';
import { hostileEvent } from './fixtures.ts';

describe('escaping', () => {
  it.each([
    ['a & b <c> >', 'a &amp; b &lt;c&gt; &gt;'],
    ['<!channel> <@U123> <https://x|y>', '&lt;!channel&gt; &lt;@U123&gt; &lt;https://x|y&gt;'],
    ['*bold* _it_ ~s~ `c` Příliš 🐎', '*bold* _it_ ~s~ `c` Příliš 🐎'],
  ])('Slack mrkdwn: %s', (text, escaped) => {
    expect(escapeMrkdwn(text)).toBe(escaped);
  });

  it.each([
    ['[x](https://evil.example)', '\\[x\\]\\(https://evil.example)'],
    ['**b** _i_ `c` <img src=x>', '\\*\\*b\\*\\* \\_i\\_ \\`c\\` \\<img src=x\\>'],
    ['see https://weblate.example/a_b/(x)', 'see https://weblate.example/a_b/(x)'],
    ['Příliš žluťoučký 🐎', 'Příliš žluťoučký 🐎'],
  ])('Markdown: %s', (text, escaped) => {
    expect(escapeMarkdown(text)).toBe(escaped);
  });

  it.each([
    ['https://weblate.example/p/', 'https://weblate.example/p/'],
    ['javascript:alert(1)', null],
    ['data:text/html,<b>', null],
    ['not a url', null],
    [null, null],
  ])('links only to http(s): %s', (url, link) => {
    expect(safeLink(url)).toBe(link);
  });
});

describe('rendering an event', () => {
  const event = hostileEvent();

  it('keeps every character of the title in text, escaped in HTML', () => {
    expect(renderEventText(event).split('\n')[0]).toBe(`Fired: ${event.title}`);
    const html = renderEventHtml(event);
    expect(html).toContain('evil&lt;b&gt;&amp;co / de reached 90.0 % &lt;!channel&gt;');
    expect(html).toContain('Příliš žluťoučký 🐎');
    expect(html).not.toContain('evil<b>');
  });

  it('shows missing figures as a dash and links nowhere without a safe URL', () => {
    const bare = hostileEvent({ url: 'javascript:alert(1)', dataAsOf: null, type: 'resolved' });
    expect(renderEventText(bare)).toContain('level: –');
    expect(renderEventText(bare)).toContain('data as of: unknown');
    expect(renderEventText(bare)).not.toContain('javascript:');
    expect(renderEventHtml(bare)).not.toContain('href');
    expect(renderEventMarkdown(bare)).not.toContain('javascript:');
    const slack = renderEventSlack(bare);
    expect(slack.text).toMatch(/^✅ Resolved: /);
    expect(slack.blocks.map((b) => (b as { type: string }).type)).toEqual([
      'section',
      'section',
      'context',
    ]);
  });

  it('escapes every mrkdwn control character anywhere in the Slack body', () => {
    const json = JSON.stringify(renderEventSlack(event));
    // The only `<`, `>` and bare `&` left would be Slack syntax; there must be none.
    expect(json).not.toMatch(/[<>]/);
    expect(json).not.toMatch(/&(?!amp;|lt;|gt;)/);
  });
});

describe('retry pauses', () => {
  it.each([
    [1, 1000, null, 0.5, 1000],
    [2, 1000, null, 0.5, 2000],
    [3, 1000, null, 0, 2000],
    [3, 1000, null, 0.999, 5996],
    [1, 0, null, 0.7, 0],
    [20, 1000, null, 0.5, MAX_RETRY_DELAY_MS],
    [1, 1000, 5000, 0.9, 5000],
    [1, 1000, 3_600_000, 0.5, MAX_RETRY_DELAY_MS],
  ])(
    'try %i, backoff %i ms, Retry-After %s, random %d: %i ms',
    (attempt, backoff, after, random, ms) => {
      expect(retryDelayMs(attempt, backoff, after, () => random)).toBe(ms);
    },
  );

  it.each([
    ['7', 7000],
    [' 0 ', 0],
    [['3', '9'], 3000],
    ['Wed, 21 Oct 2026 07:28:00 GMT', null],
    ['-1', null],
    ['1.5', null],
    [undefined, null],
  ])('reads Retry-After %j', (value, ms) => {
    expect(parseRetryAfter(value)).toBe(ms);
  });
});

describe('smtp URLs', () => {
  it.each([
    [
      'smtp://u:p@mail.example.org',
      { host: 'mail.example.org', port: 587, secure: false, requireTLS: true },
    ],
    ['smtp://mail.example.org:25', { port: 25, requireTLS: true, user: null, password: null }],
    ['smtps://u:p@mail.example.org', { port: 465, secure: true, requireTLS: false }],
    ['smtp://127.0.0.1:2525', { host: '127.0.0.1', requireTLS: false }],
    ['smtp://localhost', { requireTLS: false }],
    ['smtp://[::1]:25', { host: '::1', requireTLS: false }],
    ['smtp://a%40b.org:p%40ss%3Aw@h', { user: 'a@b.org', password: 'p@ss:w' }],
  ])('reads %s', (url, expected) => {
    expect(smtpTargetOf(url)).toMatchObject(expected);
  });

  it('refuses other schemes without quoting the password', () => {
    expect(() => smtpTargetOf('http://u:hunter2@h')).toThrow(/neither smtp: .* nor smtps:/);
    expect(() => smtpTargetOf('smtp//u:hunter2@h')).toThrow(/^smtp\/\/u:\*\*\*@h is not a URL/);
    expect(() => smtpTargetOf('smtp://u:100%zz@h')).toThrow(
      'the password of the smtp URL is not valid percent-encoding (write % as %25)',
    );
  });

  it('derives one Message-ID per key, in the sender domain', () => {
    const id = messageIdOf('a#1/fired', 'Mirror <m@example.org>');
    expect(id).toMatch(/^<[0-9a-f]{32}\.weblate-mirror@example\.org>$/);
    expect(messageIdOf('a#1/fired', 'm@example.org')).toBe(id);
    expect(messageIdOf('a#1/resolved', 'm@example.org')).not.toBe(id);
  });
});

describe('channel settings', () => {
  it.each([
    [{ name: 'a', type: 'webhook', url: 'https://x.example/h', secret: TEST_SECRET }, []],
    [
      { name: 'a', type: 'webhook', url: 'https://x.example/h', secret: 'hunter2' },
      [/^channel a: secret: must be/],
    ],
    [{ name: 'a', type: 'slack', url: 'ftp://x.example/h' }, [/^channel a: url: must be http/]],
    [{ name: 'a', type: 'mattermost', url: 'nope' }, [/^channel a: url: not a URL$/]],
    [
      { name: 'm', type: 'email', smtpUrl: 'imap://x', from: 'a@b.c', to: [], caFile: null },
      [/^channel m: smtp: the scheme imap:/, /^channel m: to: names no address$/],
    ],
  ] as const)('checks %j', (spec, problems) => {
    const found = checkChannelSpec(spec as never);
    expect(found).toHaveLength(problems.length);
    problems.forEach((pattern, i) => expect(found[i]).toMatch(pattern));
  });
});
