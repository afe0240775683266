import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createChannel } from '../../../src/watch/channels/index.ts';
import type { ChannelSpec } from '../../../src/watch/model.ts';
import { captureLogger } from '../../helpers/logs.ts';
import { freePort } from '../../helpers/ports.ts';
import { createLoopbackCertificate } from '../../helpers/tls-proxy.ts';
import { digestMessage, eventMessage, hostileEvent } from './fixtures.ts';
import { parseMail, type SmtpReceiver, startSmtpReceiver } from './receivers.ts';

// A password with URL-special characters, percent-encoded in the URL as a user writes it.
const PASSWORD = 'p@ss:w0rd/ünïcode';
const USER = 'mirror@example.org';

let dir: string;
let caFile: string;
let smtp: SmtpReceiver;

beforeAll(async () => {
  // Made now with openssl (test/helpers/tls-proxy.ts): no key is committed.
  const certificate = await createLoopbackCertificate();
  dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-smtp-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, certificate.cert);
  smtp = await startSmtpReceiver({ ...certificate, user: USER, password: PASSWORD });
});

afterAll(async () => {
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

function spec(overrides: { password?: string; caFile?: string | null; port?: number } = {}) {
  const password = encodeURIComponent(overrides.password ?? PASSWORD);
  return {
    name: 'mail',
    type: 'email',
    smtpUrl: `smtp://${encodeURIComponent(USER)}:${password}@127.0.0.1:${overrides.port ?? smtp.port}`,
    from: 'Weblate mirror <mirror@example.org>',
    to: ['team@example.org', 'lead@example.org'],
    caFile: overrides.caFile === undefined ? caFile : overrides.caFile,
  } satisfies ChannelSpec;
}

const fast = { attempts: 3, backoffMs: 0, timeoutMs: 5_000 };

describe('the e-mail channel', () => {
  it('sends an alert over STARTTLS, trusting caFile, with text, HTML and the key', async () => {
    const before = smtp.mails.length;
    const result = await createChannel(spec(), fast).send(eventMessage());
    expect(result).toEqual({ ok: true });
    expect(smtp.mails).toHaveLength(before + 1);
    const mail = smtp.mails.at(-1)!;
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe(USER);
    expect(mail.to).toEqual(['team@example.org', 'lead@example.org']);
    const event = hostileEvent();
    const parsed = parseMail(mail.raw);
    expect(parsed.headers.get('subject')).toBe(event.title);
    expect(parsed.headers.get('x-weblate-mirror-key')).toBe(event.key);
    expect(parsed.headers.get('message-id')).toMatch(
      /^<[0-9a-f]{32}\.weblate-mirror@example\.org>$/,
    );
    expect(parsed.text).toContain(`Fired: ${event.title}`);
    expect(parsed.text).toContain('translated percent: 90.1');
    expect(parsed.html).toContain('evil&lt;b&gt;&amp;co');
    expect(parsed.html).not.toContain('<b>&co');
    expect(parsed.html).toContain('<a href="https://weblate.example/projects/evil/-/de/">');
  });

  it('sends a digest as its subject, text and HTML; the same key gives the same Message-ID', async () => {
    const before = smtp.mails.length;
    const channel = createChannel(spec(), fast);
    expect(await channel.send(digestMessage())).toEqual({ ok: true });
    expect(await channel.send(digestMessage())).toEqual({ ok: true });
    const [first, second] = smtp.mails.slice(before).map((m) => parseMail(m.raw));
    const { digest } = digestMessage() as Extract<
      ReturnType<typeof digestMessage>,
      { kind: 'digest' }
    >;
    expect(first!.headers.get('subject')).toBe(digest.subject);
    expect(first!.text).toBe(digest.text);
    expect(first!.html).toBe(digest.html);
    expect(first!.headers.get('x-weblate-mirror-key')).toBe(digest.key);
    expect(second!.headers.get('message-id')).toBe(first!.headers.get('message-id'));
  });

  it('reports wrong credentials in one final line, without the password, in the result or the logs', async () => {
    const { log, lines } = captureLogger();
    const logins = smtp.logins;
    const result = await createChannel(spec({ password: 'wrong-Secret-42' }), {
      ...fast,
      log,
    }).send(eventMessage());
    expect(result).toEqual({
      ok: false,
      retryable: false,
      error: `channel mail: the SMTP server at 127.0.0.1:${smtp.port} refused the login of ${USER}: check the user and password of its smtp URL`,
    });
    expect(smtp.logins).toBe(logins + 1);
    const everything = JSON.stringify(result) + lines.join('\n');
    expect(everything).not.toContain('wrong-Secret-42');
    expect(everything).not.toContain(encodeURIComponent('wrong-Secret-42'));
  });

  it('names caFile when the server certificate is not trusted', async () => {
    const result = await createChannel(spec({ caFile: null }), fast).send(eventMessage());
    expect(result).toMatchObject({ ok: false, retryable: false });
    if (result.ok) return;
    expect(result.error).toMatch(
      /^channel mail: cannot trust the SMTP server at 127\.0\.0\.1:\d+: .*self.signed.*caFile/,
    );
    expect(result.error).not.toContain('\n');
    expect(result.error).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('reports an unreachable server in one retryable line, tried `attempts` times', async () => {
    const port = await freePort();
    const { log, lines } = captureLogger();
    const result = await createChannel(spec({ port }), { ...fast, attempts: 2, log }).send(
      eventMessage(),
    );
    expect(result).toEqual({
      ok: false,
      retryable: true,
      error: `channel mail: cannot connect to the SMTP server at 127.0.0.1:${port} (connection refused): check the host and port of its smtp URL, and that the server is up (2 attempts)`,
    });
    expect(lines.filter((l) => l.includes('channel send failed, retrying'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(encodeURIComponent(PASSWORD));
  });
});
