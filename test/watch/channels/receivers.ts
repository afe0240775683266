import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

/** One request an HTTP receiver got, with its body as sent. */
export interface ReceivedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP receiver; `answer` gets the number of the request (1-based) and answers it,
 * or leaves it unanswered.
 */
export async function startHttpReceiver(
  answer: (n: number, request: ReceivedRequest, response: ServerResponse) => void,
): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      answer(requests.length, seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/secret-token`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One mail an SMTP receiver accepted, and whether the session was encrypted when it came. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | undefined;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  /** Logins tried, accepted or not. */
  logins: number;
  close(): Promise<void>;
}

/** A loopback SMTP server with STARTTLS (the certificate given) and one user. */
export async function startSmtpReceiver(options: {
  key: string;
  cert: string;
  user: string;
  password: string;
}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const receiver: SmtpReceiver = { port: 0, mails, logins: 0, close: () => Promise.resolve() };
  const server = new SMTPServer({
    key: options.key,
    cert: options.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      receiver.logins++;
      if (auth.username === options.user && auth.password === options.password)
        callback(null, { user: auth.username });
      else
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.server.address() as AddressInfo).port;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`), decoded. */
function decodeWords(text: string): string {
  return text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const ascii = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < ascii.length; i++) {
    const hex = ascii.slice(i + 1, i + 3);
    if (ascii[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(ascii[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Headers (lower-case names, unfolded, decoded) and body of one MIME entity. */
function entityOf(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body: raw.slice(split + 4) };
}

/** What a test checks in a mail: some headers, and its text and HTML parts decoded. */
export function parseMail(raw: string): {
  headers: Map<string, string>;
  text: string | null;
  html: string | null;
} {
  const { headers, body } = entityOf(raw);
  const parts: Record<string, string> = {};
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const entities = boundary === undefined ? [raw] : body.split(`--${boundary}`).slice(1, -1);
  for (const entity of entities) {
    const part = entityOf(boundary === undefined ? entity : entity.replace(/^\r\n/, ''));
    const type = (part.headers.get('content-type') ?? 'text/plain').split(';')[0]!;
    const encoding = part.headers.get('content-transfer-encoding') ?? '7bit';
    const content = part.body.replace(/\r\n$/, '');
    const decoded =
      encoding === 'base64'
        ? Buffer.from(content, 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? decodeQuotedPrintable(content)
          : content;
    // SMTP carries lines ending in CRLF; the sender gave LF.
    parts[type] = decoded.replace(/\r\n/g, '\n');
  }
  return { headers, text: parts['text/plain'] ?? null, html: parts['text/html'] ?? null };
}
