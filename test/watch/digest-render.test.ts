import { describe, expect, it } from 'vitest';

import { webRootOf } from '../../src/watch/digest/build.ts';
import type { Digest, DigestStalled } from '../../src/watch/digest/model.ts';
import { renderDigest } from '../../src/watch/digest/render.ts';
import { digestScopeProblem } from '../../src/watch/digest/scope.ts';

/** A digest of a quiet day with nothing standing either: every list empty. */
const EMPTY: Digest = {
  key: 'digest/day/2026-12-06',
  every: 'day',
  from: '2026-12-06',
  to: '2026-12-06',
  generated_at: '2026-12-07T06:00:00.000000Z',
  data_as_of: null,
  instance_url: null,
  scope: { projects: ['app'], language: 'de', category: 'app/docs' },
  movers: { baseline_day: '2026-12-05', matching: '0', rows: [] },
  stalled: { matching: '0', rows: [] },
  ready: [],
  review: { matching: '0', rows: [] },
  new_work: [],
  activity: { changes: '0', words_translated: '0', words_translated_without_author: '0' },
};

function stalled(n: number, name: string): DigestStalled {
  return {
    project_slug: 'app',
    project_name: name,
    component_slug: `c${n}`,
    language_code: 'de',
    total: 10,
    untranslated: 5,
    untranslated_words: 20,
    translated_percent: '50.0',
    idle_since: '2026-01-01T00:00:00.000000Z',
    days_since_last_change: 340,
    last_author: null,
    url: `https://weblate.example/translate/app/c${n}/de/?a=1&b=<2>`,
  };
}

describe('renderDigest', () => {
  it('says an empty period in one line, and the data time it does not know', () => {
    const rendered = renderDigest(EMPTY);
    expect(rendered.subject).toBe('weblate-mirror daily digest 2026-12-06: nothing moved');
    expect(rendered.text).toBe(
      [
        'weblate-mirror daily digest 2026-12-06: nothing moved',
        'Scope: project app, category app/docs, language de.',
        'Data as of: no sync has succeeded yet.',
        '',
        'Nothing moved: no changes, no new source strings, no translation moved.',
        '',
      ].join('\n'),
    );
    expect(rendered.blocks).toHaveLength(3);
    expect(rendered.html).not.toContain('<h2');
    expect(rendered.document).toMatchObject({ data_as_of: null, key: EMPTY.key });
  });

  it('keeps a long list within Slack’s limits, and escapes names and links', () => {
    const name = `<@channel> & ${'x'.repeat(200)}`;
    const rows = Array.from({ length: 60 }, (_, n) => stalled(n, name));
    const rendered = renderDigest({ ...EMPTY, stalled: { matching: '75', rows } });
    const blocks = rendered.blocks as Array<{ type: string; text: { text: string } }>;
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const block of blocks.filter((b) => b.type === 'section')) {
      expect(block.text.text.length).toBeLessThanOrEqual(3000);
      expect(block.text.text).not.toMatch(/<@channel>|<2>/);
    }
    expect(blocks.at(-1)!.text.text).toMatch(/…$/);
    expect(rendered.text).toContain('  … and 15 more');
    expect(rendered.html).toContain('&lt;@channel&gt; &amp; ');
    expect(rendered.html).toContain(
      'href="https://weblate.example/translate/app/c0/de/?a=1&amp;b=%3C2%3E"',
    );
    // The standing sections show even on a quiet day.
    expect(rendered.subject).toBe('weblate-mirror daily digest 2026-12-06: 75 stalled');
  });

  it('leaves out a link that is not http(s)', () => {
    const row = { ...stalled(1, 'app'), url: 'javascript:alert(1)' };
    const rendered = renderDigest({ ...EMPTY, stalled: { matching: '1', rows: [row] } });
    expect(rendered.html).not.toContain('javascript:');
    expect(rendered.text).not.toContain('javascript:');
    expect(JSON.stringify(rendered.blocks)).not.toContain('javascript:');
  });
});

describe('webRootOf', () => {
  it.each([
    ['https://hosted.weblate.org/api/', 'https://hosted.weblate.org/'],
    ['https://example.com/weblate/api/', 'https://example.com/weblate/'],
    ['http://127.0.0.1:8080/api', 'http://127.0.0.1:8080/'],
    ['not a url', null],
    [null, null],
  ])('%s → %s', (apiRoot, root) => {
    expect(webRootOf(apiRoot)).toBe(root);
  });
});

describe('digestScopeProblem', () => {
  it.each([
    [{}, null],
    [{ projects: ['a', 'b'], languages: ['de'] }, null],
    [{ components: ['a/x', 'a/y'] }, null],
    [{ categories: ['a/docs'] }, null],
    [{ labels: ['ui'] }, 'a digest cannot be narrowed to labels'],
    [{ languages: ['de', 'fr'] }, 'at most one language'],
    [{ categories: ['a/x', 'a/y'] }, 'at most one category'],
    [{ components: ['a/x', 'b/y'] }, 'components of one project'],
    [{ components: ['x'] }, 'project/component'],
    [{ components: ['a/x'], categories: ['a/docs'] }, 'not both'],
  ])('%o: %s', (scope, problem) => {
    const found = digestScopeProblem(scope);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});
