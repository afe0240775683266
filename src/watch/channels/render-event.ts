import { escapeHtml } from '../../report/svg-chart.ts';
import type { WatchEvent } from '../model.ts';

/*
 * An alert event in the forms people read it in: plain text, HTML, Slack blocks, Mattermost
 * Markdown. Pure; every name may come from Weblate and be hostile, so each form escapes what
 * its renderer would otherwise interpret, and keeps every other character as it is.
 */

/** `&`, `<` and `>`: the only characters Slack's mrkdwn reads as control (links, mentions). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const MARKDOWN_SPECIAL = /[\\`*_[\]()#<>|~!{}+-]/g;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]+/g;

/**
 * Markdown (Mattermost's) that shows `text` literally: its punctuation backslash-escaped,
 * except inside the http(s) URLs it holds, which stay clickable.
 */
export function escapeMarkdown(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    out += text.slice(last, match.index).replace(MARKDOWN_SPECIAL, '\\$&') + match[0];
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(MARKDOWN_SPECIAL, '\\$&');
}

/** The URL when it is http(s), else null: a `javascript:` link never reaches a button or href. */
export function safeLink(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const STATE = { fired: 'Fired', resolved: 'Resolved' } as const;
const ICON = { fired: '🔔', resolved: '✅' } as const;

/** Name and value of each line under the title, in order: where, then the figures. */
function detailsOf(event: WatchEvent): Array<[string, string]> {
  const details: Array<[string, string]> = [];
  if (event.project !== null) details.push(['project', event.project]);
  if (event.language !== null) details.push(['language', event.language]);
  for (const [name, value] of Object.entries(event.figures))
    details.push([name.replace(/_/g, ' '), value === null ? '–' : String(value)]);
  return details;
}

function footerOf(event: WatchEvent): string {
  const asOf = event.dataAsOf === null ? 'data as of: unknown' : `data as of ${event.dataAsOf}`;
  return `rule ${event.rule} (${event.ruleType}) · ${asOf} · key ${event.key}`;
}

/** Plain text: the state and title, one line per detail, the link, the footer. */
export function renderEventText(event: WatchEvent): string {
  const link = safeLink(event.url);
  return [
    `${STATE[event.type]}: ${event.title}`,
    '',
    ...detailsOf(event).map(([name, value]) => `${name}: ${value}`),
    ...(link === null ? [] : ['', `In Weblate: ${link}`]),
    '',
    footerOf(event),
    '',
  ].join('\n');
}

/** A small HTML document for e-mail; every value escaped, the link only when http(s). */
export function renderEventHtml(event: WatchEvent): string {
  const e = escapeHtml;
  const link = safeLink(event.url);
  const rows = detailsOf(event)
    .map(([name, value]) => `<tr><th align="left">${e(name)}</th><td>${e(value)}</td></tr>`)
    .join('');
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>' +
    `<p><strong>${e(STATE[event.type])}:</strong> ${e(event.title)}</p>` +
    (rows === '' ? '' : `<table>${rows}</table>`) +
    (link === null ? '' : `<p><a href="${e(link)}">Open in Weblate</a></p>`) +
    `<p style="color:#666">${e(footerOf(event))}</p>` +
    '</body></html>\n'
  );
}

/** Slack's limit on the fields of one section block. */
const SLACK_MAX_FIELDS = 10;

/** Slack Block Kit: the title, the details as fields, a button to Weblate, the footer. */
export function renderEventSlack(event: WatchEvent): { text: string; blocks: unknown[] } {
  const m = escapeMrkdwn;
  const link = safeLink(event.url);
  const fields = detailsOf(event)
    .slice(0, SLACK_MAX_FIELDS)
    .map(([name, value]) => ({ type: 'mrkdwn', text: `*${m(name)}*\n${m(value)}` }));
  const text = `${ICON[event.type]} ${STATE[event.type]}: ${m(event.title)}`;
  const blocks: unknown[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${ICON[event.type]} *${STATE[event.type]}:* ${m(event.title)}`,
      },
    },
    ...(fields.length === 0 ? [] : [{ type: 'section', fields }]),
    ...(link === null
      ? []
      : [
          {
            type: 'actions',
            elements: [
              { type: 'button', text: { type: 'plain_text', text: 'Open in Weblate' }, url: link },
            ],
          },
        ]),
    { type: 'context', elements: [{ type: 'mrkdwn', text: m(footerOf(event)) }] },
  ];
  return { text, blocks };
}

/** Mattermost Markdown (it does not render Slack blocks): the title, a list, the link. */
export function renderEventMarkdown(event: WatchEvent): string {
  const md = escapeMarkdown;
  const link = safeLink(event.url);
  return [
    `${ICON[event.type]} **${STATE[event.type]}:** ${md(event.title)}`,
    '',
    ...detailsOf(event).map(([name, value]) => `- **${md(name)}:** ${md(value)}`),
    ...(link === null
      ? []
      : ['', `[Open in Weblate](${link.replace(/\(/g, '%28').replace(/\)/g, '%29')})`]),
    '',
    `_${md(footerOf(event))}_`,
  ].join('\n');
}
