import { checkWebhookSecret } from '../../lib/webhook-secret.ts';
import type { Logger } from '../../logger.ts';
import type { ChannelSpec, SendResult, WatchMessage } from '../model.ts';
import { mattermostBody, slackBody } from './chat.ts';
import { createEmailSender, smtpTargetOf } from './email.ts';
import { postOnce } from './http.ts';
import { type AttemptResult, withRetries } from './retry.ts';
import { messageKey, webhookBody, webhookHeaders } from './webhook.ts';

export interface Channel {
  name: string;
  type: ChannelSpec['type'];
  /** Delivers one message, with retries; never throws. */
  send(message: WatchMessage): Promise<SendResult>;
}

export interface ChannelOptions {
  /** Per try; default 10 s. */
  timeoutMs?: number;
  /** Tries in all; default 3. */
  attempts?: number;
  /** The first pause between tries, doubled for each next one (with jitter); default 1 s. */
  backoffMs?: number;
  /** Ends the tries (and the pause between them). */
  signal?: AbortSignal;
  log?: Logger;
  /** Milliseconds since the epoch, for `sent_at` and signatures; default Date.now. */
  now?: () => number;
  /** For the jitter; default Math.random. */
  random?: () => number;
}

/**
 * What is wrong with a channel's settings, one line each (empty when nothing): the rules
 * file's check, so that `createChannel` is never given a channel that cannot work.
 */
export function checkChannelSpec(spec: ChannelSpec): string[] {
  const problems: string[] = [];
  const prefix = `channel ${spec.name}`;
  if (spec.type === 'email') {
    try {
      smtpTargetOf(spec.smtpUrl);
    } catch (err) {
      problems.push(`${prefix}: smtp: ${(err as Error).message}`);
    }
    if (spec.to.length === 0) problems.push(`${prefix}: to: names no address`);
    return problems;
  }
  let url: URL | null = null;
  try {
    url = new URL(spec.url);
  } catch {
    problems.push(`${prefix}: url: not a URL`);
  }
  if (url !== null && url.protocol !== 'https:' && url.protocol !== 'http:')
    problems.push(`${prefix}: url: must be http:// or https://, not ${url.protocol}`);
  if (spec.type === 'webhook' && spec.secret !== null) {
    try {
      checkWebhookSecret(spec.secret);
    } catch (err) {
      problems.push(`${prefix}: secret: ${(err as Error).message}`);
    }
  }
  return problems;
}

const RECEIVERS = { webhook: 'the receiver', slack: 'Slack', mattermost: 'Mattermost' } as const;

/**
 * A channel that delivers messages as `spec` says. Throws an Error naming the channel when
 * the spec is one checkChannelSpec refuses.
 */
export function createChannel(spec: ChannelSpec, options: ChannelOptions = {}): Channel {
  const problems = checkChannelSpec(spec);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const log = options.log?.child({ channel: spec.name, channelType: spec.type });
  let sendOnce: (message: WatchMessage) => Promise<AttemptResult>;
  if (spec.type === 'email') {
    const sender = createEmailSender(spec, timeoutMs);
    sendOnce = (message) => sender.sendOnce(message);
  } else {
    const url = new URL(spec.url);
    sendOnce = (message) => {
      const sentAt = new Date(now());
      let body: string;
      let headers: Record<string, string>;
      if (spec.type === 'webhook') {
        body = webhookBody(message, sentAt);
        headers = webhookHeaders(spec.secret, messageKey(message), sentAt, body);
      } else {
        body = spec.type === 'slack' ? slackBody(message) : mattermostBody(message);
        headers = { 'content-type': 'application/json' };
      }
      return postOnce({
        channel: spec.name,
        receiver: RECEIVERS[spec.type],
        url,
        headers,
        body,
        timeoutMs,
        signal: options.signal,
      });
    };
  }
  return {
    name: spec.name,
    type: spec.type,
    async send(message) {
      const result = await withRetries(() => sendOnce(message), {
        channel: spec.name,
        attempts: options.attempts ?? 3,
        backoffMs: options.backoffMs ?? 1_000,
        signal: options.signal,
        log,
        random: options.random,
      });
      if (result.ok) log?.debug({ key: messageKey(message) }, 'channel delivered');
      return result;
    },
  };
}
