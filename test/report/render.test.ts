import { describe, expect, it } from 'vitest';

import { describePace, readinessByLanguage } from '../../src/report/answer-rows.ts';
import { addDays, daysBetween, isIsoDay } from '../../src/report/days.ts';
import { REPORT_STYLE } from '../../src/report/html-style.ts';
import { LABEL_LEFT_OUT, type Report } from '../../src/report/model.ts';
import { csvField, renderCsv } from '../../src/report/render-csv.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { renderJson } from '../../src/report/render-json.ts';
import { renderTable } from '../../src/report/render-table.ts';
import { escapeHtml, niceCeiling, percentRange } from '../../src/report/svg-chart.ts';

const EVIL = `<script>alert("x")</script> & 'co'`;

/** The page without the spans that keep dates whole and the phone layout's cell labels. */
function plainHtml(report: Report): string {
  return renderHtml(report)
    .replace(/<span class="date">([^<]*)<\/span>/g, '$1')
    .replace(/ data-label="[^"]*"/g, '');
}

const FIGURES = {
  translations: 1,
  total: 10,
  translated: 5,
  translated_percent: 50,
  total_words: 30,
  translated_words: 12,
  translated_words_percent: 40,
  fuzzy: 1,
  approved: 0,
  failing: 2,
  untranslated: 5,
  untranslated_words: 18,
  last_change: '2026-11-20T10:00:00.000000Z',
};

const WORK = {
  user_days_included: 3,
  user_days_excluded: 1,
  strings_median: 7,
  strings_mean: 7.5,
  strings_p75: 8.25,
  strings_p90: 9.3,
  words_median: 40,
  words_mean: 41.3,
  words_p75: 45,
  words_p90: 52.6,
};

/** A report whose every text field holds markup, quotes and an ampersand. */
function hostileReport(): Report {
  return {
    generated_at: '2026-11-22T12:00:00.000000Z',
    instance: 'https://weblate.example/api/?<b>&"',
    filters: { projects: [], language: null, since: null, category: null, label: null },
    window: { from: '2026-11-20', to: '2026-11-22' },
    projects: [{ ...FIGURES, project_slug: 'p', project_name: EVIL, components: 1 }],
    languages: [
      { ...FIGURES, language_code: 'de', language_name: EVIL, projects: 1, components: 1 },
    ],
    components: [{ ...FIGURES, project_slug: 'p', component_slug: 'c', component_name: EVIL }],
    categories: [
      {
        ...FIGURES,
        project_slug: 'p',
        category_id: 1,
        category_slug: 'docs',
        category_name: EVIL,
        parent_id: null,
        path: 'docs',
        depth: 0,
        components: 1,
      },
      {
        ...FIGURES,
        project_slug: 'p',
        category_id: 2,
        category_slug: 'api',
        category_name: 'API reference',
        parent_id: 1,
        path: 'docs/api',
        depth: 1,
        components: 1,
      },
    ],
    labels: [
      {
        label_id: 7,
        label_name: EVIL,
        project_slug: 'p',
        language_code: 'de',
        translations: 1,
        total: 4,
        total_words: 9,
        translated: 3,
        translated_words: 7,
        translated_percent: 75,
        translated_words_percent: 77.7,
        fuzzy: 0,
        approved: 1,
        approved_percent: 25,
        failing: 0,
        untranslated: 1,
        untranslated_words: 2,
        history_from_day: '2026-11-20',
        translated_percent_then: 50,
        translated_percent_change: 25,
      },
      {
        label_id: 7,
        label_name: EVIL,
        project_slug: 'p',
        language_code: 'fr',
        translations: 1,
        total: 6,
        translated: 3,
        total_words: 12,
        translated_words: 6,
        translated_percent: 50,
        translated_words_percent: 50,
        fuzzy: 0,
        approved: 0,
        approved_percent: 0,
        failing: 0,
        untranslated: 3,
        untranslated_words: 6,
        history_from_day: null,
        translated_percent_then: null,
        translated_percent_change: null,
      },
    ],
    matched_labels: [],
    left_out: [],
    movers: [
      {
        name: '7d',
        from: '2026-11-16',
        to: '2026-11-22',
        baseline_day: '2026-11-15',
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            component_slug: 'c',
            language_code: 'de',
            from_day: '2026-11-15',
            from_origin: 'estimated',
            translated_percent_then: 40,
            translated_percent_now: 50,
            translated_percent_change: 10,
            translated_words_before: 8,
            translated_words_now: 12,
            translated_words_change: 4,
          },
        ],
      },
    ],
    contributors: {
      matching: 2,
      rows: [
        {
          author_name: EVIL,
          credited_changes: 3,
          credited_words: 4,
          languages: ['de'],
          last_day: '2026-11-21',
        },
      ],
    },
    stalled: {
      matching: 1,
      rows: [
        {
          project_slug: 'p',
          component_slug: 'c',
          language_code: 'de',
          total: 10,
          untranslated: 5,
          untranslated_words: 18,
          translated_percent: 50,
          idle_since: '2026-01-01T00:00:00.000000Z',
          days_since_last_change: 325,
          last_author: EVIL,
        },
      ],
    },
    language_history: ['2026-11-20', '2026-11-21', '2026-11-22'].map((day, i) => ({
      day,
      language_code: 'de',
      translations: 1,
      total: 10,
      translated: 3 + i,
      translated_percent: 30 + 10 * i,
      total_words: 30,
      translated_words: 10 + i,
      translated_words_percent: 33.3,
      // The first day is before the mirror's first snapshot: estimated from the change log.
      origin: i === 0 ? ('estimated' as const) : ('measured' as const),
      estimated_translations: i === 0 ? 1 : 0,
    })),
    activity: [
      { day: '2026-11-20', changes: 0, words_translated: 0, authors: 0 },
      { day: '2026-11-21', changes: 3, words_translated: 4, authors: 1 },
      { day: '2026-11-22', changes: 0, words_translated: 0, authors: 0 },
    ],
    period: 'week',
    new_work: [
      {
        period_start: '2026-11-16',
        strings_added: 12,
        words_added: 1234,
        strings_removed: 1,
        words_removed: 3,
      },
    ],
    contributor_ranking: {
      matching: 3,
      rows: [
        {
          rank: 1,
          username: EVIL,
          full_name: EVIL,
          strings_translated: 5,
          words_translated: 40,
          strings_approved: 2,
          words_approved: 9,
          strings_suggested: 1,
          comments: 4,
          languages: ['de', 'fr'],
        },
      ],
    },
    review: {
      waiting: {
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            language_code: 'de',
            strings_waiting: 7,
            words_waiting: 21,
            waiting_since: '2026-11-01T08:00:00.000000Z',
            oldest_days: 21,
            over_7_days: 4,
          },
        ],
      },
      approval: {
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            language_code: 'de',
            approvals: 3,
            measured: 2,
            median_hours: 5.25,
            average_hours: 30,
            max_hours: 54.75,
          },
        ],
      },
    },
    translation_methods: [
      { period_start: '2026-11-16', method: 'person', strings_saved: 3, words_saved: 4 },
      { period_start: '2026-11-16', method: 'automatic', strings_saved: 10, words_saved: 25 },
    ],
    release_readiness: [80, 90, 95].map((threshold) => ({
      project_slug: 'p',
      language_code: 'de',
      threshold,
      total_words: 100,
      translated_words: 85,
      translated_words_percent: 85,
      is_reached: threshold === 80,
      words_needed: Math.max(0, threshold - 85),
      words_per_day: 0.5,
      projected_date: threshold === 80 ? null : threshold === 90 ? '2026-12-02' : '2026-12-12',
      translations: 2,
      pace_translations: 2,
      words_translated_30d: 15,
      pace_origin: 'measured' as const,
      pace_known_from: null,
      status: threshold === 80 ? 'reached' : threshold === 90 ? '2026-12-02' : '2026-12-12',
    })),
    quality: [
      {
        period_start: '2026-11-16',
        day: '2026-11-22',
        translations: 1,
        failing: 2,
        total: 10,
        failing_percent: 20,
      },
    ],
    effort: {
      work_limits: { min_changes: 5, max_changes: 1000, max_words: 10_000 },
      translator_work: {
        ...WORK,
        translators: 2,
        authors_unverified: 1,
      },
      translator_work_people: { matching: 1, rows: [{ username: EVIL, ...WORK }] },
      cost_rates: { base_rate: 2.5, tm_threshold: 80 },
      cost: [
        {
          bucket: 'new',
          estimate_strings: 3,
          estimate_words: 12,
          estimate_chars: 60,
          rate: 100,
          cost: 30,
          approximate: false,
          approximation: null,
        },
        {
          bucket: 'tm_fuzzy',
          estimate_strings: 1,
          estimate_words: 4,
          estimate_chars: 20,
          rate: 50,
          cost: 5,
          approximate: true,
          approximation: EVIL,
        },
      ],
      machine_translation: {
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            language_code: 'de',
            filled: 10,
            kept: 4,
            edited: 5,
            replaced: 1,
            superseded: 0,
            edits_0: 0,
            edits_1_10: 2,
            edits_11_30: 2,
            edits_31_60: 1,
            edits_over_60: 1,
            median_edit_percent: 17.5,
            p90_edit_percent: 64.2,
            median_hours_to_person: 3.5,
            p90_hours_to_person: 70,
          },
        ],
      },
      time_in_state: {
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            language_code: 'de',
            state: 'waiting for review',
            spans: 4,
            ended: 3,
            still_open: 1,
            median_hours_in_state: 20.5,
            p90_hours_in_state: 100,
          },
        ],
      },
      target: { state: 'waiting for review', days: 7 },
      over_target: {
        matching: 1,
        rows: [
          {
            project_slug: 'p',
            component_slug: 'c',
            language_code: 'de',
            unit_id: 42,
            source: [EVIL, EVIL],
            state: 'waiting for review',
            since: '2026-11-01T08:00:00.000000Z',
            days_in_state: 21,
          },
        ],
      },
    },
    totals: {
      progress: { ...FIGURES },
      activity: { changes: 3, words_translated: 4, words_translated_without_author: 0 },
    },
  };
}

describe('renderHtml', () => {
  it('escapes every name, so markup in the data stays text', () => {
    const html = renderHtml(hostileReport());
    expect(html).not.toContain('<script');
    expect(html).not.toContain(`'co'`);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    // Names appear in the project, language, component, contributor and stalled tables.
    expect(html.split('&lt;script&gt;').length - 1).toBeGreaterThanOrEqual(5);
    expect(html).toContain('from the mirror of https://weblate.example/api/?&lt;b&gt;&amp;&quot;.');
  });

  it('loads nothing: no script, no link, no url() and a policy that forbids them', () => {
    // The instance's address is text in the header, not something the page loads.
    const html = renderHtml(hostileReport()).replace(
      'https://weblate.example/api/?&lt;b&gt;&amp;&quot;',
      '',
    );
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html).not.toMatch(/url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('draws a line per language and a bar per day, with their values on hover', () => {
    const html = renderHtml(hostileReport());
    expect(html.match(/<rect [^>]*data-day="2026-11-2\d"><title>2026-11-2\d/g)).toHaveLength(3);
    expect(html).toMatch(/data-day="2026-11-22"><title>2026-11-22\n[^<]*: 50\.0%<\/title>/);
    expect(html).not.toContain('<circle');
    expect(html.match(/<rect [^>]*data-day=[^>]*data-value=/g)).toHaveLength(3);
    expect(html).toContain('data-day="2026-11-21" data-value="3" data-words="4" data-authors="1"');
  });

  it('draws estimated days dotted, with a note, and measured days solid', () => {
    const html = renderHtml(hostileReport());
    expect(html).toContain('<title>2026-11-20 (estimated)\n');
    // The dotted stretch runs from the estimated day to the first measured one.
    expect(html.match(/<path class="estimated" d="([^"]*)"/)![1]!.match(/[ML]/g)).toHaveLength(2);
    expect(html.match(/<path class="measured" d="([^"]*)"/)![1]!.match(/[ML]/g)).toHaveLength(2);
    expect(html).toContain('estimated from the change log');
    expect(html).toContain('Measured snapshots start on 2026-11-21');
    // A mover compared with an estimated day says so.
    expect(plainHtml(hostileReport())).toContain('2026-11-15 (estimated)');
  });

  it('breaks a line where its translations change, and leaves out the estimated lead-in', () => {
    const report = hostileReport();
    const [first, second, third] = report.language_history;
    report.language_history = [
      { ...first!, translations: 1, translated_percent: 80 },
      { ...second!, origin: 'estimated', translations: 2 },
      { ...third!, translations: 3 },
    ];
    const html = renderHtml(report);
    // 2026-11-20 summed fewer translations than the last estimated day: left out.
    expect(html).not.toContain('data-day="2026-11-20"><title>');
    expect(html).toContain('are left out (1 language-days)');
    // 2026-11-22 sums another set: a ring, and no line from the day before.
    expect(html.match(/<circle class="restart"[^>]*data-day="2026-11-2[12]"/g)).toHaveLength(2);
    expect(html).not.toContain('<path class="measured"');
    expect(html).toContain('A ring marks a day on which translations joined or left');
  });

  it('names every project, component and language, and writes thousands with separators', () => {
    const report = hostileReport();
    report.totals.progress = { ...FIGURES, translated: 12345, total: 1234567 };
    const html = renderHtml(report);
    expect(html).toContain('<b>12,345 / 1,234,567</b>');
    expect(html).toContain('<b>50.0%</b><span>translated %</span>');
    const movers = html.slice(html.indexOf('class="movers movers-7d"'));
    expect(movers.slice(0, movers.indexOf('</tr>', movers.indexOf('<tbody>')))).not.toMatch(
      /<td>(p|c|de)<\/td>/,
    );
    expect(html).not.toContain('--limit');
    // The tables in the README's order, after the charts.
    const order = [
      'language-chart',
      'activity-chart',
      'projects',
      'languages',
      'components',
      'stalled',
      'new-work',
      'contributor-ranking',
      'review',
      'translation-methods',
      'release-readiness',
      'quality',
    ];
    const at = order.map((id) => html.indexOf(`<section id="${id}">`));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(at).not.toContain(-1);
    // One table of contributors: the ranking, with full names.
    expect(html.match(/<table class="[^"]*\b(contributors|ranking)\b/g)).toEqual([
      '<table class="ranking',
    ]);
  });

  it("puts each table's key column right after its names, and labels the cells after it", () => {
    const html = renderHtml(hostileReport());
    const keys = new Map<string, string>();
    for (const [, name, table] of html.matchAll(/<table class="([^"]*)">(.*?)<\/table>/gs)) {
      const headers = [...table!.matchAll(/<th(?: class="([^"]*)")?>([^<]*)<\/th>/g)];
      const keyAt = headers.findIndex(([, cls]) => cls?.split(' ').includes('key'));
      expect(
        headers.filter(([, cls]) => cls?.split(' ').includes('key')),
        name,
      ).toHaveLength(1);
      keys.set(name!, headers[keyAt]![2]!);
      // On a phone each cell after the key shows its header (data-label); the names do not.
      for (const [, row] of table!.matchAll(/<tbody>(.*?)<\/tbody>/gs))
        for (const [, tr] of row!.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)) {
          const cells = [...tr!.matchAll(/<td(?: class="([^"]*)")?(?: data-label="([^"]*)")?>/g)];
          expect(cells.map(([, cls]) => cls?.split(' ').includes('key') === true)).toEqual(
            headers.map((_, i) => i === keyAt),
          );
          expect(cells.map(([, , label]) => label ?? null)).toEqual(
            headers.map(([, , header], i) => (i > keyAt ? header : null)),
          );
        }
    }
    expect(Object.fromEntries(keys)).toEqual({
      projects: 'translated %',
      languages: 'translated %',
      components: 'translated %',
      categories: 'translated %',
      labels: 'translated %',
      'movers movers-7d': '% change',
      stalled: 'strings left',
      'new-work': 'strings added',
      ranking: 'words translated',
      'review-waiting': 'strings waiting',
      'review-approval': 'median time',
      methods: 'by people',
      readiness: '80 %',
      quality: 'failing %',
      'translator-work': 'strings a day, median',
      'translator-work-people': 'strings a day, median',
      cost: 'cost',
      'machine-translation': 'filled automatically',
      'time-in-state': 'p90 hours in state',
      'over-target': 'days in state',
    });
  });

  it('keeps every date of a heading on one line', () => {
    const html = renderHtml(hostileReport());
    const headings = html.match(/<(h1|h2|h3|p class="meta")>.*?<\/(h1|h2|h3|p)>/g) ?? [];
    expect(headings.filter((h) => /\d{4}-\d{2}-\d{2}/.test(h)).length).toBeGreaterThan(5);
    for (const heading of headings)
      expect(heading.replace(/<span class="date">\d{4}-\d{2}-\d{2}<\/span>/g, '')).not.toMatch(
        /\d{4}-\d{2}/,
      );
    expect(REPORT_STYLE).toContain('.date { white-space: nowrap; }');
  });

  it('says so when there is nothing to draw', () => {
    const empty: Report = {
      ...hostileReport(),
      projects: [],
      languages: [],
      components: [],
      movers: [],
      contributors: { matching: 0, rows: [] },
      stalled: { matching: 0, rows: [] },
      language_history: [],
      activity: hostileReport().activity.map((d) => ({ ...d, changes: 0, words: 0, authors: 0 })),
      new_work: [],
      contributor_ranking: { matching: 0, rows: [] },
      review: { waiting: { matching: 0, rows: [] }, approval: { matching: 0, rows: [] } },
      translation_methods: [],
      release_readiness: [],
      quality: [],
    };
    const html = renderHtml(empty);
    expect(html).toContain('No source strings added or removed.');
    expect(html).toContain('No string waits for review.');
    expect(html).toContain('No approvals in this window.');
    expect(html).toContain('No translations saved in this window.');
    expect(html).toContain('No measured statistics in this window.');
    expect(html).toContain('No statistics history in this window yet');
    expect(html).toContain('No changes in this window.');
    expect(html).toContain('No components.');
    expect(html).not.toContain('NaN');
  });
});

describe('the sections of new work, contributors, review, method, readiness and quality', () => {
  it('lay out methods side by side and thresholds as reached or a date, in HTML', () => {
    const html = plainHtml(hostileReport());
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      '<tr><td>2026-11-16</td><td class="n key">12</td><td class="n">1,234</td><td class="n">1</td><td class="n">3</td></tr>',
    );
    // Methods in a fixed order: people first, whatever order the rows come in.
    const methods = html.slice(html.indexOf('<section id="translation-methods">'));
    expect(methods).toMatch(/<th class="n key">by people<\/th><th class="n">automatic<\/th>/);
    expect(methods).toMatch(/<td>2026-11-16<\/td><td class="n key">4<\/td><td class="n">25<\/td>/);
    // The thresholds, the lowest first (the key), then the words translated and the pace.
    const readiness = html.slice(html.indexOf('<section id="release-readiness">'));
    expect(readiness).toMatch(
      /<td class="key">reached<\/td><td>2026-12-02<\/td><td>2026-12-12<\/td><td class="n">85\.0<\/td><td class="n">0\.5<\/td>/,
    );
    // Hours of an approval: under two days in hours, else in days; the median first.
    const review = html.slice(html.indexOf('<section id="review">'));
    expect(review).toMatch(
      /<td class="n key">5\.3 h<\/td><td class="n">3<\/td><td class="n">2<\/td><td class="n">30\.0 h<\/td><td class="n">2\.3 d<\/td>/,
    );
    const ranking = html.slice(html.indexOf('<section id="contributor-ranking">'));
    expect(ranking).toContain('(showing 1 of 3)');
    expect(ranking).toContain('&lt;script&gt;');
  });

  it('print them as text tables, after the stalled translations', () => {
    const table = renderTable(hostileReport());
    const at = [
      'Stalled translations',
      'New work: source strings added and removed per week',
      'Contributors ranked by words translated',
      'Review: strings waiting for approval',
      'Review: time from translation to approval',
      'Translation method: words saved per week',
      'Release readiness',
      'Quality: strings with failing checks',
    ].map((title) => table.indexOf(title));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(table).toMatch(/^2026-11-16\s+12\s+1,234\s+1\s+3$/m);
    expect(table).toMatch(/^p\s+de\s+85\.0\s+0\.5\s+reached\s+2026-12-02\s+2026-12-12$/m);
    expect(table).toMatch(/^2026-11-16\s+2026-11-22\s+2\s+10\s+20\.0$/m);
    expect(table).toContain('(showing 1 of 3; --limit shows more)');
  });

  it('write one CSV table each, in the report order', () => {
    const csv = renderCsv(hostileReport());
    const names = [...csv.matchAll(/^# (\w+)\r$/gm)].map((m) => m[1]);
    expect(names.slice(-13)).toEqual([
      'new_work',
      'contributor_ranking',
      'review_waiting',
      'review_approval',
      'translation_methods',
      'release_readiness',
      'quality',
      'translator_work',
      'translator_work_people',
      'cost_estimate',
      'machine_translation',
      'time_in_state',
      'over_target',
    ]);
    // Weblate's cost figures, the rate and the approximation quoted as RFC 4180 asks.
    expect(csv).toContain(
      '\r\ntm_fuzzy,1,4,20,50,5,true,"<script>alert(""x"")</script> & \'co\'"\r\n',
    );
    expect(csv).toContain(
      '# release_readiness\r\nproject_slug,language_code,threshold,total_words,translated_words,translated_words_percent,is_reached,words_needed,words_per_day,projected_date,translations,pace_translations,words_translated_30d,pace_origin,pace_known_from,status\r\np,de,80,100,85,85,true,0,0.5,,2,2,15,measured,,reached\r\n',
    );
    expect(csv).toContain(
      '\r\n1,"<script>alert(""x"")</script> & \'co\'","<script>alert(""x"")</script> & \'co\'",5,40,2,9,1,4,de fr\r\n',
    );
  });
});

describe('renderCsv and renderJson', () => {
  it('quotes fields as RFC 4180 asks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(['de', 'fr'])).toBe('de fr');
    expect(csvField(12.5)).toBe('12.5');
  });

  it('keeps a header row for an empty section', () => {
    const csv = renderCsv({ ...hostileReport(), stalled: { matching: 0, rows: [] } });
    expect(csv).toContain(
      '# stalled\r\nproject_slug,component_slug,language_code,total,untranslated,untranslated_words,translated_percent,idle_since,days_since_last_change,last_author\r\n\r\n# language_history',
    );
  });

  it('prints the model as one JSON object, its format first', () => {
    const printed = JSON.parse(renderJson(hostileReport())) as Record<string, unknown>;
    expect(Object.keys(printed)[0]).toBe('format');
    expect(printed).toEqual({ format: 'weblate-mirror.report/1', ...hostileReport() });
  });
});

describe('renderTable', () => {
  it('keeps each row on one line and drops control characters', () => {
    const report = hostileReport();
    report.projects[0]!.project_name = 'two\nlines\u001b[31m red';
    const table = renderTable(report);
    expect(table).toMatch(/^p\s+two lines \[31m red\s+1\s+1\s+10\s+5\s+50\.0\s+40\.0\s+1\s+2$/m);
    expect(table).not.toContain('\u001b');
    expect(table).toContain('(showing 1 of 2; --limit shows more)');
  });
});

describe('chart and day helpers', () => {
  it('zooms the percentage axis to whole tens around the data', () => {
    expect(percentRange([])).toEqual({ min: 0, max: 100 });
    expect(percentRange([45.7, 51.8])).toEqual({ min: 40, max: 60 });
    expect(percentRange([50])).toEqual({ min: 50, max: 60 });
    expect(percentRange([100])).toEqual({ min: 90, max: 100 });
    expect(percentRange([0, 100])).toEqual({ min: 0, max: 100 });
  });

  it('rounds bar heights up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 180, 501].map(niceCeiling)).toEqual([
      1, 1, 5, 10, 10, 20, 200, 1000,
    ]);
  });

  it('counts UTC days and checks dates', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween({ from: '2026-12-30', to: '2027-01-02' })).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(['2026-02-28', '2024-02-29'].every(isIsoDay)).toBe(true);
    expect(['2026-02-29', '2026-13-01', '26-01-01', '2026-1-1', ''].some(isIsoDay)).toBe(false);
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;',
    );
  });
});

describe('the sections of categories and labels', () => {
  it('indent nested categories under their parent and give a line per label, in HTML', () => {
    const html = plainHtml(hostileReport());
    const categories = html.slice(html.indexOf('<section id="categories">'));
    expect(categories).toContain('<tr data-path="p/docs">');
    expect(categories).toContain(
      '<span class="category" style="padding-left:1.25em">API reference<small>docs/api</small></span>',
    );
    const labels = html.slice(html.indexOf('<section id="labels">'));
    expect(labels).toContain('&lt;script&gt;');
    // A line per label: each figure from its lowest to its highest over the languages.
    expect(labels).toContain(
      '<td class="n key">50.0–75.0</td><td class="n">2</td><td class="n">4–6</td><td class="n">0.0–25.0</td><td><span class="up">+25.0</span> since 2026-11-20</td>',
    );
    expect(html.indexOf('<section id="components">')).toBeLessThan(
      html.indexOf('<section id="categories">'),
    );
    expect(html.indexOf('<section id="categories">')).toBeLessThan(
      html.indexOf('<section id="labels">'),
    );
  });

  it('print them as text after the components, and leave them out when there are none', () => {
    const table = renderTable(hostileReport());
    const at = ['Progress by component', 'Progress by category', 'Labels:', 'Biggest movers'].map(
      (title) => table.indexOf(title),
    );
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(table).toMatch(/^p\s+docs\/api\s+API reference\s+1\s+1\s+10\s+5\s+50\.0\s/m);
    expect(table).toMatch(/\s+de\s+4\s+3\s+75\.0\s+25\.0\s+50\.0 on 2026-11-20\s+\+25\.0$/m);
    const none = { ...hostileReport(), categories: [], labels: [] };
    expect(renderTable(none)).not.toContain('Progress by category');
    expect(renderTable(none)).not.toContain('Labels:');
    expect(renderHtml(none)).not.toContain('<section id="categories">');
    expect(renderHtml(none)).not.toContain('<section id="labels">');
  });

  it('write CSV tables of categories and labels after the components', () => {
    const csv = renderCsv(hostileReport());
    const names = [...csv.matchAll(/^# (\w+)\r$/gm)].map((m) => m[1]);
    expect(names.slice(0, 6)).toEqual([
      'report',
      'projects',
      'languages',
      'components',
      'categories',
      'labels',
    ]);
    expect(csv).toContain(
      '# report\r\ngenerated_at,instance,projects,language,since,category,label,matched_labels,left_out,window_from,window_to\r\n',
    );
    expect(csv).toContain('\r\np,docs/api,2,api,API reference,1,1,1,1,10,5,50,');
  });

  it('with --label, say in one line which sections are left out, and leave them out', () => {
    const report: Report = {
      ...hostileReport(),
      filters: { ...hostileReport().filters, label: 'UI' },
      matched_labels: ['p/UI'],
      left_out: [...LABEL_LEFT_OUT],
    };
    const line =
      'Label "UI" (p/UI): only the progress by language and the labels are shown; the sections that count whole translations or changes cannot be narrowed to a label and are left out.';
    const table = renderTable(report);
    expect(table).toContain(line);
    expect(table).toContain('Scope: all projects, all languages, strings labelled "UI".');
    for (const title of [
      'Progress by project',
      'Progress by component',
      'Biggest movers',
      'New work',
    ])
      expect(table).not.toContain(title);
    expect(table).toContain('Progress by language');
    const html = renderHtml(report);
    expect(html).toContain(`<p class="meta left-out">${line.replace(/"/g, '&quot;')}</p>`);
    for (const id of ['projects', 'components', 'activity-chart', 'contributors', 'new-work'])
      expect(html).not.toContain(`<section id="${id}">`);
    expect(html).toContain('<section id="languages">');
    expect(html).toContain('Translated strings labelled &quot;UI&quot; over time, by language');
  });
});

describe('the pace of release readiness', () => {
  const base = hostileReport().release_readiness[1]!; // 90 %: not reached, with a date
  const line = (row: typeof base) => readinessByLanguage([row])[0]!;

  it('says when the pace reads estimated history, and how many translations it covers', () => {
    const estimated = { ...base, pace_origin: 'estimated' as const, pace_translations: 1 };
    expect(describePace(line(estimated))).toBe('0.5 estimated (1 of 2 translations)');
    expect(describePace(line(base))).toBe('0.5');
  });

  it('says a pace is unknown rather than 0', () => {
    const unknown = { ...base, words_per_day: null, pace_origin: null, pace_translations: 0 };
    expect(describePace(line(unknown))).toBe('unknown');
  });
});
