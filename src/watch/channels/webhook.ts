import { webhookOf } from '../../lib/webhook-secret.ts';
import type { WatchEvent, WatchMessage } from '../model.ts';

/*
 * The generic webhook's body, version 1 (docs/watching.md#the-generic-webhook): a change of
 * its meaning is a new version, so receivers can tell.
 */

export const WEBHOOK_BODY_VERSION = 1;

/** The event's fields in snake_case, as a JSON receiver expects them. */
export function eventFields(event: WatchEvent): Record<string, unknown> {
  return {
    key: event.key,
    alert_key: event.alertKey,
    type: event.type,
    rule: event.rule,
    rule_type: event.ruleType,
    occurred_at: event.occurredAt,
    title: event.title,
    project: event.project,
    language: event.language,
    figures: event.figures,
    url: event.url,
    data_as_of: event.dataAsOf,
  };
}

/** The key a receiver dedupes on: the event's or the digest's. */
export function messageKey(message: WatchMessage): string {
  return message.kind === 'event' ? message.event.key : message.digest.key;
}

/** The JSON body of one delivery; `sentAt` is the time of this try. */
export function webhookBody(message: WatchMessage, sentAt: Date): string {
  const head = { version: WEBHOOK_BODY_VERSION, sent_at: sentAt.toISOString() };
  if (message.kind === 'event')
    return JSON.stringify({
      ...head,
      type: `alert.${message.event.type}`,
      key: message.event.key,
      event: eventFields(message.event),
    });
  const { digest } = message;
  return JSON.stringify({
    ...head,
    type: 'digest',
    key: digest.key,
    subject: digest.subject,
    text: digest.text,
    digest: digest.document,
  });
}

/**
 * Headers of a delivery signed as Weblate's webhook add-on signs (Standard Webhooks): the id
 * is the message key, the timestamp whole seconds. Unsigned without a secret.
 */
export function webhookHeaders(
  secret: string | null,
  key: string,
  sentAt: Date,
  body: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret === null) return headers;
  const seconds = Math.floor(sentAt.getTime() / 1000);
  return {
    ...headers,
    'webhook-id': key,
    'webhook-timestamp': String(seconds),
    'webhook-signature': webhookOf(secret).sign(key, new Date(seconds * 1000), body),
  };
}
