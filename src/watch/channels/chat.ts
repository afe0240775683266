import type { WatchMessage } from '../model.ts';
import {
  escapeMarkdown,
  escapeMrkdwn,
  renderEventMarkdown,
  renderEventSlack,
} from './render-event.ts';

/** A Slack incoming webhook's body: blocks, and the text notifications and old clients show. */
export function slackBody(message: WatchMessage): string {
  if (message.kind === 'event') return JSON.stringify(renderEventSlack(message.event));
  const { digest } = message;
  return JSON.stringify({ text: escapeMrkdwn(digest.subject), blocks: digest.blocks });
}

/** A Mattermost incoming webhook's body: Markdown, which it renders (not Slack's blocks). */
export function mattermostBody(message: WatchMessage): string {
  if (message.kind === 'event') return JSON.stringify({ text: renderEventMarkdown(message.event) });
  const { digest } = message;
  return JSON.stringify({
    text: `**${escapeMarkdown(digest.subject)}**\n\n${escapeMarkdown(digest.text)}`,
  });
}
