import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';

import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

import { isLoopbackHost } from '../../lib/hosts.ts';
import { connectFailureOf, tlsFailureOf } from '../../lib/network-errors.ts';
import { redactUrl, redactUrlsInText } from '../../lib/redact.ts';
import type { ChannelSpec, WatchMessage } from '../model.ts';
import { renderEventHtml, renderEventText } from './render-event.ts';
import type { AttemptResult } from './retry.ts';
import { oneLine } from './retry.ts';

type EmailSpec = Extract<ChannelSpec, { type: 'email' }>;

/** Where an smtp URL points and how to log in, read once. */
export interface SmtpTarget {
  host: string;
  port: number;
  /** smtps: TLS from the first byte; smtp: STARTTLS. */
  secure: boolean;
  /** STARTTLS required: everywhere but this machine's loopback, where plain is allowed. */
  requireTLS: boolean;
  user: string | null;
  password: string | null;
}

/** Reads an smtp:// or smtps:// URL; throws an Error without the password when it is neither. */
export function smtpTargetOf(smtpUrl: string): SmtpTarget {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error(
      `${redactUrl(smtpUrl)} is not a URL: expected smtp://user:password@host:587 or smtps://…:465`,
    );
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`the scheme ${url.protocol} is neither smtp: (STARTTLS) nor smtps: (TLS)`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new Error('the smtp URL names no host');
  const secure = url.protocol === 'smtps:';
  return {
    host,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    requireTLS: !secure && !isLoopbackHost(host),
    user: url.username === '' ? null : percentDecoded(url.username, 'user'),
    password: url.password === '' ? null : percentDecoded(url.password, 'password'),
  };
}

function percentDecoded(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`the ${what} of the smtp URL is not valid percent-encoding (write % as %25)`);
  }
}

/** The Message-ID of a key's mail: the same key, the same id, so a mailbox can dedupe. */
export function messageIdOf(key: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'weblate-mirror.invalid';
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return `<${hash}.weblate-mirror@${domain}>`;
}

export interface EmailSender {
  sendOnce(message: WatchMessage): Promise<AttemptResult>;
}

const MIN_MASKED_PASSWORD = 4;

/** One e-mail channel: a transport made at the first send (after reading caFile), then reused. */
export function createEmailSender(spec: EmailSpec, timeoutMs: number): EmailSender {
  const target = smtpTargetOf(spec.smtpUrl);
  const where = `the SMTP server at ${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  // Whatever a library or a server says passes through here: the password never leaves. A
  // password of a few characters would mask common words, and guarding it is no use anyway.
  const secrets = [target.password, spec.smtpUrl].filter(
    (s): s is string => s !== null && s.length >= MIN_MASKED_PASSWORD,
  );
  const scrub = (text: string) =>
    secrets.reduce((out, secret) => out.split(secret).join('***'), redactUrlsInText(oneLine(text)));
  const fail = (retryable: boolean, what: string): AttemptResult => ({
    ok: false,
    retryable,
    error: scrub(`channel ${spec.name}: ${what}`),
  });
  let transport: Transporter<SMTPTransport.SentMessageInfo> | null = null;

  async function transportOf(): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
    if (transport !== null) return transport;
    const ca =
      spec.caFile === null ? undefined : [...rootCertificates, await readFile(spec.caFile, 'utf8')];
    transport = createTransport({
      host: target.host,
      port: target.port,
      secure: target.secure,
      requireTLS: target.requireTLS,
      auth: target.user === null ? undefined : { user: target.user, pass: target.password ?? '' },
      tls: ca === undefined ? {} : { ca },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
      logger: false,
      debug: false,
    });
    return transport;
  }

  return {
    async sendOnce(message) {
      let sender: Transporter<SMTPTransport.SentMessageInfo>;
      try {
        sender = await transportOf();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        return fail(false, `cannot read its caFile ${spec.caFile} (${code}): check the path`);
      }
      try {
        await sender.sendMail(mailOf(spec, message));
        return { ok: true };
      } catch (err) {
        return describeSmtpFailure(err, { spec, target, where, timeoutMs, fail });
      }
    },
  };
}

function mailOf(spec: EmailSpec, message: WatchMessage) {
  const key = message.kind === 'event' ? message.event.key : message.digest.key;
  const content =
    message.kind === 'event'
      ? {
          subject: message.event.title,
          text: renderEventText(message.event),
          html: renderEventHtml(message.event),
        }
      : { subject: message.digest.subject, text: message.digest.text, html: message.digest.html };
  return {
    from: spec.from,
    to: spec.to,
    ...content,
    messageId: messageIdOf(key, spec.from),
    headers: { 'X-Weblate-Mirror-Key': key },
  };
}

interface FailureContext {
  spec: EmailSpec;
  target: SmtpTarget;
  where: string;
  timeoutMs: number;
  fail: (retryable: boolean, what: string) => AttemptResult;
}

/** One line per way an SMTP delivery fails, saying what to check; 4xx replies are retryable. */
function describeSmtpFailure(err: unknown, c: FailureContext): AttemptResult {
  const e = err as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    message?: unknown;
  };
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
  const said = typeof e.response === 'string' ? e.response : String(e.message);
  const known = tlsFailureOf(err);
  const tls = known === null ? tlsFailureInMessage(said) : `${known.what} (${known.code})`;
  if (e.code === 'EAUTH' && reply !== null && reply >= 400 && reply < 500)
    return c.fail(
      true,
      `${c.where} could not check the login now (${said}): it will be tried again`,
    );
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH')
    return c.fail(
      false,
      `${c.where} refused the login of ${c.target.user ?? '(no user)'}: check the user and password of its smtp URL`,
    );
  if (tls !== null)
    return c.fail(
      false,
      `cannot trust ${c.where}: ${tls}; if you trust it, give the channel its authority's certificate (PEM) as caFile${c.spec.caFile === null ? '' : ` (now ${c.spec.caFile})`}, or check the host of its smtp URL`,
    );
  const connect = connectFailureOf(err) ?? connectFailureInMessage(said);
  if (connect !== null || e.code === 'EDNS')
    return c.fail(
      true,
      `cannot connect to ${c.where} (${connect ?? 'unknown host'}): check the host and port of its smtp URL, and that the server is up`,
    );
  if (e.code === 'ETIMEDOUT')
    return c.fail(
      true,
      `no answer from ${c.where} within ${c.timeoutMs / 1000} s: check the host and port of its smtp URL, and that the server is up`,
    );
  if (e.code === 'ETLS')
    return c.fail(
      false,
      `${c.where} offers no STARTTLS (${said}), which is required off this machine: use an smtps:// URL if it takes TLS on connect, or a server that offers STARTTLS`,
    );
  if (reply !== null)
    return c.fail(
      reply < 500,
      `${c.where} refused the message (${said}): check the channel's from and to addresses`,
    );
  if (/wrong version number|packet length too long|unknown protocol/i.test(said))
    return c.fail(false, `${c.where} does not speak TLS as its URL's scheme says: ${SCHEMES}`);
  return c.fail(
    true,
    `the connection to ${c.where} failed (${said}): check the server; ${SCHEMES}`,
  );
}

const SCHEMES =
  'use smtps:// for a port that takes TLS on connect (usually 465), smtp:// for STARTTLS (usually 587)';

/*
 * nodemailer replaces the code of a socket's error with its own (ESOCKET, ETLS) and keeps
 * only the message: "connect ECONNREFUSED 127.0.0.1:25", "self-signed certificate", ….
 */

function tlsFailureInMessage(message: string): string | null {
  const match = /^(?:Error initiating TLS - )?(.*(?:certificate|self.signed).*)$/i.exec(message);
  return match === null ? null : match[1]!;
}

function connectFailureInMessage(message: string) {
  const code = /\b(E[A-Z_]+)\b/.exec(message)?.[1];
  return code === undefined ? null : connectFailureOf(Object.assign(new Error(message), { code }));
}
