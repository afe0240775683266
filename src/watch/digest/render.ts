import { DOCUMENT_FORMATS } from '../../lib/json-document.ts';
import { escapeHtml } from '../../report/svg-chart.ts';
import { escapeMrkdwn, safeLink } from '../channels/render-event.ts';
import type { RenderedDigest } from '../model.ts';
import type { Digest } from './model.ts';

/*
 * A digest in every form a channel sends (RenderedDigest): the wording is decided once, as
 * sections of lines (sectionsOf), and each form only marks it up, escaping every name (a
 * project's name comes from Weblate and may be hostile).
 */

/** The `format` of the JSON document (lib/json-document.ts names the others). */
export const DIGEST_FORMAT = DOCUMENT_FORMATS.digest;

/** Slack's limits: blocks in a message, characters in a text field and in a header. */
const SLACK_MAX_BLOCKS = 50;
const SLACK_MAX_TEXT = 3000;
const SLACK_MAX_HEADER = 150;

interface Line {
  /** Where: `project / component / language`; null for a figure of the whole scope. */
  label: string | null;
  detail: string;
  url: string | null;
}

interface Section {
  title: string;
  lines: Line[];
  /** `… and N more` when the list was cut. */
  more: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const signed = (x: string | null) => (x === null ? '–' : x.startsWith('-') ? x : `+${x}`);
const percent = (x: string | null) => (x === null ? '–' : `${x} %`);
const more = (matching: string, shown: number) => Math.max(0, Number(matching) - shown);

/** Whether nothing happened in the period: no change, no new source text, nothing moved. */
export function isQuiet(digest: Digest): boolean {
  return (
    digest.activity.changes === '0' &&
    digest.movers.rows.length === 0 &&
    digest.ready.length === 0 &&
    digest.new_work.every((w) => w.strings_added === '0' && w.strings_removed === '0')
  );
}

function subjectOf(digest: Digest): string {
  const when = digest.from === digest.to ? digest.from : `${digest.from} – ${digest.to}`;
  const parts: string[] = [];
  if (digest.ready.length > 0) parts.push(`${plural(digest.ready.length, 'language')} ready`);
  if (digest.movers.rows.length > 0) parts.push(`${digest.movers.matching} moved`);
  if (digest.stalled.rows.length > 0) parts.push(`${digest.stalled.matching} stalled`);
  const summary =
    parts.length > 0 ? parts.join(', ') : isQuiet(digest) ? 'nothing moved' : 'activity';
  return `weblate-mirror ${digest.every === 'day' ? 'daily' : 'weekly'} digest ${when}: ${summary}`;
}

/** The lines under the subject: scope and freshness. */
function headerOf(digest: Digest): string[] {
  const { projects, language, category } = digest.scope;
  const scope = [
    projects.length === 0
      ? 'all projects'
      : `${projects.length === 1 ? 'project' : 'projects'} ${projects.join(', ')}`,
    ...(category === null ? [] : [`category ${category}`]),
    language === null ? 'all languages' : `language ${language}`,
  ].join(', ');
  return [
    `Scope: ${scope}.`,
    digest.data_as_of === null
      ? 'Data as of: no sync has succeeded yet.'
      : `Data as of ${digest.data_as_of} (the last succeeded sync).`,
  ];
}

function movementSections(digest: Digest): Section[] {
  const { activity } = digest;
  const work = digest.new_work.map((w) => ({
    // A digest's period is one period of the report's; a longer window has several.
    label: digest.new_work.length === 1 ? null : `from ${w.period_start}`,
    detail: `${w.strings_added} strings (${w.words_added} words) added, ${w.strings_removed} strings (${w.words_removed} words) removed`,
    url: null,
  }));
  return [
    {
      title: 'Activity',
      lines: [
        {
          label: null,
          detail: `${activity.changes} changes, ${activity.words_translated} words translated`,
          url: null,
        },
      ],
      more: 0,
    },
    { title: 'New source work', lines: work, more: 0 },
    {
      title: 'Became ready',
      lines: digest.ready.map((r) => ({
        label: `${r.project_name} / ${r.language_code}`,
        detail: `${percent(r.translated_words_percent_then)} → ${percent(r.translated_words_percent_now)} of words translated (crossed ${r.levels.map((l) => `${l} %`).join(', ')})`,
        url: r.url,
      })),
      more: 0,
    },
    {
      title: `Moved since ${digest.movers.baseline_day}`,
      lines: digest.movers.rows.map((r) => ({
        label: `${r.project_name} / ${r.component_slug} / ${r.language_code}`,
        detail: `${percent(r.translated_percent_then)} → ${percent(r.translated_percent_now)} translated (${signed(r.translated_percent_change)})`,
        url: r.url,
      })),
      more: more(digest.movers.matching, digest.movers.rows.length),
    },
  ];
}

function standingSections(digest: Digest): Section[] {
  return [
    {
      title: `Stalled (idle since before ${digest.from})`,
      lines: digest.stalled.rows.map((r) => ({
        label: `${r.project_name} / ${r.component_slug} / ${r.language_code}`,
        detail: `${r.untranslated ?? '–'} strings (${r.untranslated_words ?? '–'} words) left, ${percent(r.translated_percent)} translated, idle ${r.days_since_last_change} days`,
        url: r.url,
      })),
      more: more(digest.stalled.matching, digest.stalled.rows.length),
    },
    {
      title: 'Review queue',
      lines: digest.review.rows.map((r) => ({
        label: `${r.project_name} / ${r.language_code}`,
        detail: `${r.strings_waiting} strings (${r.words_waiting} words) waiting, oldest ${r.oldest_days} days, ${r.over_7_days} waiting 7+ days`,
        url: r.url,
      })),
      more: more(digest.review.matching, digest.review.rows.length),
    },
  ];
}

/** The sections with lines; a quiet period's movement is one line instead. */
function sectionsOf(digest: Digest): { quiet: string | null; sections: Section[] } {
  const standing = standingSections(digest).filter((s) => s.lines.length > 0);
  if (isQuiet(digest))
    return {
      quiet: 'Nothing moved: no changes, no new source strings, no translation moved.',
      sections: standing,
    };
  const moving = movementSections(digest).filter((s) => s.lines.length > 0);
  return { quiet: null, sections: [...moving, ...standing] };
}

/** Two spaces and the link, for text; nothing where it is not http(s). */
const link = (url: string | null) => {
  const safe = safeLink(url);
  return safe === null ? '' : `  ${safe}`;
};

function renderText(
  subject: string,
  header: string[],
  body: ReturnType<typeof sectionsOf>,
): string {
  const lines = [subject, ...header];
  if (body.quiet !== null) lines.push('', body.quiet);
  for (const section of body.sections) {
    lines.push('', `${section.title}:`);
    for (const line of section.lines)
      lines.push(
        `  ${line.label === null ? '' : `${line.label}: `}${line.detail}${link(line.url)}`,
      );
    if (section.more > 0) lines.push(`  … and ${section.more} more`);
  }
  return `${lines.join('\n')}\n`;
}

const HTML_STYLE = {
  body: 'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328;max-width:720px;margin:0;padding:16px',
  h1: 'font-size:18px;margin:0 0 8px',
  h2: 'font-size:15px;margin:20px 0 6px;border-bottom:1px solid #d0d7de;padding-bottom:4px',
  muted: 'color:#59636e;font-size:13px;margin:2px 0',
  li: 'margin:3px 0',
  a: 'color:#0969da',
};

function renderHtml(
  subject: string,
  header: string[],
  body: ReturnType<typeof sectionsOf>,
): string {
  const e = escapeHtml;
  const item = (line: Line) => {
    const link = safeLink(line.url);
    const label =
      line.label === null
        ? ''
        : link === null
          ? `${e(line.label)}: `
          : `<a href="${e(link)}" style="${HTML_STYLE.a}">${e(line.label)}</a>: `;
    return `<li style="${HTML_STYLE.li}">${label}${e(line.detail)}</li>`;
  };
  const sections = body.sections.map(
    (s) =>
      `<h2 style="${HTML_STYLE.h2}">${e(s.title)}</h2><ul>${s.lines.map(item).join('')}` +
      (s.more > 0 ? `<li style="${HTML_STYLE.li}">… and ${s.more} more</li>` : '') +
      '</ul>',
  );
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${e(subject)}</title></head>` +
    `<body style="${HTML_STYLE.body}"><h1 style="${HTML_STYLE.h1}">${e(subject)}</h1>` +
    header.map((h) => `<p style="${HTML_STYLE.muted}">${e(h)}</p>`).join('') +
    (body.quiet === null ? '' : `<p>${e(body.quiet)}</p>`) +
    sections.join('') +
    '</body></html>\n'
  );
}

/** `text` cut to Slack's limit of a text field, with an ellipsis where it was cut. */
function fit(text: string, max = SLACK_MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function renderBlocks(
  subject: string,
  header: string[],
  body: ReturnType<typeof sectionsOf>,
): unknown[] {
  const m = escapeMrkdwn;
  const item = (line: Line) => {
    const link = safeLink(line.url);
    const label =
      line.label === null
        ? ''
        : link === null
          ? `${m(line.label)}: `
          : `<${m(link).replace(/\|/g, '%7C')}|${m(line.label)}>: `;
    return `• ${label}${m(line.detail)}`;
  };
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: fit(subject, SLACK_MAX_HEADER) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: fit(m(header.join(' '))) }] },
  ];
  if (body.quiet !== null)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: m(body.quiet) } });
  for (const section of body.sections) {
    const lines = [`*${m(section.title)}*`, ...section.lines.map(item)];
    if (section.more > 0) lines.push(`… and ${section.more} more`);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: fit(lines.join('\n')) } });
  }
  return blocks.slice(0, SLACK_MAX_BLOCKS);
}

/** The digest in every form: subject, text, HTML, Slack blocks and the JSON document. */
export function renderDigest(digest: Digest): RenderedDigest {
  const subject = subjectOf(digest);
  const header = headerOf(digest);
  const body = sectionsOf(digest);
  return {
    key: digest.key,
    every: digest.every,
    from: digest.from,
    to: digest.to,
    subject,
    text: renderText(subject, header, body),
    html: renderHtml(subject, header, body),
    blocks: renderBlocks(subject, header, body),
    document: { format: DIGEST_FORMAT, subject, ...digest },
  };
}
