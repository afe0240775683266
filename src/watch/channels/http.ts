import { request } from 'undici';

import { connectFailureOf, explainTlsFailure, tlsFailureOf } from '../../lib/network-errors.ts';
import type { AttemptResult } from './retry.ts';
import { oneLine } from './retry.ts';

/** As the Weblate client presents itself (src/weblate/client.ts), so receivers see one name. */
export const USER_AGENT = 'weblate-mirror/0.1 (+https://github.com/weblate-mirror)';

/** How much of a receiver's answer is read, and quoted in an error. */
const MAX_ANSWER_CHARS = 2_000;
const QUOTED_ANSWER_CHARS = 200;

export interface HttpPost {
  /** The channel's name, for messages. */
  channel: string;
  /** Who receives, in messages: "the receiver", "Slack", "Mattermost". */
  receiver: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One POST, its outcome as a result: 2xx delivered; 408, 429 and 5xx retryable (with the
 * Retry-After seconds); every other status final. Messages name the host, never the path or
 * query, which for Slack and Mattermost hold the hook's token.
 */
export async function postOnce(post: HttpPost): Promise<AttemptResult> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), post.timeoutMs);
  const signal =
    post.signal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, post.signal]);
  const where = `${post.receiver} at ${post.url.host}`;
  try {
    const answer = await request(post.url, {
      method: 'POST',
      headers: { 'user-agent': USER_AGENT, ...post.headers },
      body: post.body,
      signal,
    });
    const text = await readAnswer(answer.body);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true };
    return statusResult(post, where, answer.statusCode, text, answer.headers['retry-after']);
  } catch (err) {
    if (timeout.signal.aborted)
      return {
        ok: false,
        retryable: true,
        error: `channel ${post.channel}: no answer from ${where} within ${post.timeoutMs / 1000} s: check that it is up and answers in time`,
      };
    if (post.signal?.aborted === true)
      return { ok: false, retryable: true, error: `channel ${post.channel}: stopped` };
    return networkResult(post, where, err);
  } finally {
    clearTimeout(timer);
  }
}

async function readAnswer(body: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString('utf8');
    if (text.length >= MAX_ANSWER_CHARS) break;
  }
  return text;
}

/** What to check for a final status, by status. */
function hintOf(status: number, post: HttpPost): string {
  if (status >= 300 && status < 400) return 'it redirects: give the channel the final URL';
  if (status === 401 || status === 403)
    return post.receiver === 'the receiver'
      ? 'check the URL and, if the receiver checks signatures, the secret'
      : 'check the webhook URL: its token was refused';
  if (status === 404 || status === 410)
    return 'check the URL: there is no hook there (removed, disabled or mistyped)';
  if (status === 413) return 'it takes no message this large';
  return 'check that the URL is the right kind of hook and takes this format';
}

function statusResult(
  post: HttpPost,
  where: string,
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
): AttemptResult {
  const quoted = oneLine(text).slice(0, QUOTED_ANSWER_CHARS);
  const answered = `channel ${post.channel}: ${where} answered HTTP ${status}${quoted === '' ? '' : ` (${quoted})`}`;
  if (status === 408 || status === 429 || status >= 500)
    return {
      ok: false,
      retryable: true,
      error: `${answered}: check the receiver's state and logs`,
      retryAfterMs: parseRetryAfter(retryAfter),
    };
  return { ok: false, retryable: false, error: `${answered}: ${hintOf(status, post)}` };
}

/** Retry-After in whole seconds, as ms; null when absent or a date (the backoff applies). */
export function parseRetryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\s*\d{1,6}\s*$/.test(text) ? Number(text) * 1000 : null;
}

function networkResult(post: HttpPost, where: string, err: unknown): AttemptResult {
  const tls = tlsFailureOf(err);
  if (tls !== null)
    return {
      ok: false,
      retryable: false,
      error: `channel ${post.channel}: ${explainTlsFailure(tls, where, `the url of channel ${post.channel}`)}`,
    };
  const connect = connectFailureOf(err);
  if (connect !== null) {
    const check =
      connect === 'unknown host'
        ? `check the host name in the channel's URL`
        : `check the URL's host and port, and that the receiver is up`;
    return {
      ok: false,
      retryable: true,
      error: `channel ${post.channel}: cannot connect to ${where} (${connect}): ${check}`,
    };
  }
  const code = (err as { code?: unknown }).code;
  const what = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
  return {
    ok: false,
    retryable: true,
    error: `channel ${post.channel}: the connection to ${where} failed (${oneLine(what)}): check the receiver and the network`,
  };
}
