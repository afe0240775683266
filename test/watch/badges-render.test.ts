import { describe, expect, it } from 'vitest';

import {
  BADGE_COLOURS,
  escapeXml,
  languageBadge,
  levelBadge,
  percentColour,
  projectBadge,
  renderBadge,
  textWidth,
} from '../../src/watch/badges.ts';

const AT = '2026-03-04T05:06:07.123456Z';

/** The width attribute of the root element. */
function widthOf(svg: string): number {
  return Number(/^<svg [^>]*width="(\d+)"/.exec(svg)![1]);
}

describe('the badge colours', () => {
  it.each([
    [null, BADGE_COLOURS.grey],
    ['0.0', BADGE_COLOURS.red],
    ['49.9', BADGE_COLOURS.red],
    ['50.0', BADGE_COLOURS.orange],
    ['74.9', BADGE_COLOURS.orange],
    ['75.0', BADGE_COLOURS.yellow],
    ['89.9', BADGE_COLOURS.yellow],
    ['90.0', BADGE_COLOURS.green],
    ['100.0', BADGE_COLOURS.green],
  ])('colours %s as %s', (percent, colour) => {
    expect(percentColour(percent)).toBe(colour);
  });
});

describe('the text widths', () => {
  it('grow with every character, and a wide letter takes more than a narrow one', () => {
    let previous = 0;
    for (const text of ['', 'i', 'il', 'ilm', 'ilmW', 'ilmW%', 'ilmW%é', 'ilmW%é漢']) {
      const width = textWidth(text);
      expect(width).toBeGreaterThan(text === '' ? -1 : previous);
      previous = width;
    }
    expect(textWidth('m')).toBeGreaterThan(textWidth('i'));
    expect(textWidth('100.0%')).toBeGreaterThan(textWidth('9.9%'));
  });

  it('make a badge wider for a longer message', () => {
    const badge = (message: string) =>
      renderBadge({ label: 'translated', message, colour: '#4c1', title: 't', dataAsOf: AT });
    expect(widthOf(badge('100.0%'))).toBeGreaterThan(widthOf(badge('9.9%')));
  });
});

describe('a badge', () => {
  const hostile = `<script>alert("x")</script> & 'Friends' \u0007`;
  const svg = renderBadge(projectBadge({ name: hostile, percent: '87.5' }, AT));

  it('escapes every text it shows', () => {
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('\u0007');
    expect(svg).toContain(escapeXml(hostile.replace('\u0007', '')));
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });

  it('says the figure and the time of the data in its title and its root element', () => {
    expect(svg).toContain(
      `<title>${escapeXml(hostile.replace('\u0007', ''))}: 87.5% translated (data as of ${AT})</title>`,
    );
    expect(svg).toMatch(new RegExp(`^<svg [^>]*data-as-of="${AT}"`));
    expect(svg).toContain('>87.5%</text>');
    expect(svg).toContain(`fill="${BADGE_COLOURS.yellow}"`);
  });

  it('is grey and says so where there is no data', () => {
    const empty = renderBadge(projectBadge({ name: 'p', percent: null }, AT));
    expect(empty).toContain('>no data</text>');
    expect(empty).toContain(`fill="${BADGE_COLOURS.grey}"`);
  });

  it('shows a language by name and counts the languages at a level', () => {
    const language = renderBadge(
      languageBadge(
        { code: 'sr@latin', name: 'Serbian (latin)', percent: '95.0' },
        { name: 'App' },
        AT,
      ),
    );
    expect(language).toContain('<title>App, Serbian (latin): 95.0% translated');
    const level = levelBadge({ level: '90', ready: 3, languages: 5 }, null, AT);
    expect(level).toMatchObject({ label: 'languages ≥ 90%', message: '3 of 5' });
    expect(level.title).toBe('All projects: 3 of 5 languages at or above 90 % translated');
  });

  it('keeps a very long label short on the badge and whole in the title', () => {
    const long = 'x'.repeat(200);
    const badge = renderBadge(languageBadge({ code: 'xx', name: long, percent: '1.0' }, null, AT));
    expect(badge).toContain(`<title>${long}: 1.0%`);
    expect(badge).not.toContain(`>${long}<`);
    expect(widthOf(badge)).toBeLessThan(400);
  });
});
