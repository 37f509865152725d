/**
 * A local SMTP server that keeps what it receives, for `npm run dev`, `npm run preview`, the tests and the
 * mail benchmark: real SMTP in (smtp-server), parsed by mailparser, readable on a small inbox page and as
 * JSON. It never relays anything anywhere. Development only: nothing here is part of dist/ or a function.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

export interface CaughtAttachment {
  filename: string | undefined;
  contentType: string;
  content: string;
}

export interface CaughtMail {
  id: number;
  receivedAt: string;
  /** The SMTP envelope: who the message was really handed to. */
  envelope: { from: string; to: string[] };
  messageId: string | undefined;
  subject: string;
  from: string;
  to: string;
  replyTo: string | undefined;
  /** Header names lower-cased, values as sent (folded lines joined; a repeated header's values joined by ", "). */
  headers: Record<string, string>;
  text: string;
  html: string;
  attachments: CaughtAttachment[];
  /** The message as it arrived, byte for byte (with {@link MailCatcherOptions.keepRaw}): what a verifier reads. */
  raw?: string;
}

export interface MailCatcherOptions {
  host?: string;
  /** SMTP port; 0 (default) picks a free one. */
  smtpPort?: number;
  /** Inbox page port; 0 picks a free one; `false` serves no page. */
  httpPort?: number | false;
  /** Keep at most this many parsed mails (oldest dropped); 0 counts them without parsing. */
  keep?: number;
  /**
   * An SMTP reply code (e.g. 550) for recipients this returns one for: a server that refuses them. The reply
   * carries the RFC 3463 code a server pairs with it (550 → 5.1.1 no such mailbox, 452 → 4.2.2 mailbox full).
   */
  refuse?: (recipient: string) => number | undefined;
  /** Keep each mail's raw bytes as {@link CaughtMail.raw} (a DKIM signature is checked on them). */
  keepRaw?: boolean;
}

/** How many times each Message-ID arrived whole (read from the header, with `keep: 0` too). */
export type Deliveries = ReadonlyMap<string, number>;

/** The Message-ID header of a mail's head (its bytes up to the blank line), unfolded; '' when there is none. */
export function messageIdOf(head: string): string {
  return /^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1]?.replace(/\s+/g, '') ?? '';
}

/**
 * Reply codes a refusal list may name, each with the RFC 3463 code and words a real server answers a recipient
 * with (smtp-server's own pairing; it adds none itself unless told to).
 */
const REFUSALS: Record<number, string> = {
  450: '4.2.1 mailbox unavailable, try again later',
  451: '4.3.0 local error, try again later',
  452: '4.2.2 mailbox full',
  550: '5.1.1 no such user here',
  551: '5.1.6 user not local',
  552: '5.2.2 mailbox full',
  553: '5.1.3 mailbox name not allowed',
  554: '5.6.0 transaction failed',
};
const REFUSAL_CODES = new Set(Object.keys(REFUSALS).map(Number));

/** Thrown for a MAIL_CATCHER_REFUSE that cannot be read; the message says what is wrong. */
export class RefusalListError extends Error {
  override readonly name = 'RefusalListError';
}

/**
 * MAIL_CATCHER_REFUSE (`gone@example.com=550,full@example.com=452`) as a `refuse` option: those addresses (in
 * any letter case) are refused with their code, every other one accepted. Empty or unset: nobody is refused.
 */
export function refusalsFrom(value: string | undefined): MailCatcherOptions['refuse'] {
  const list = new Map<string, number>();
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([^\s=@]+@[^\s=@]+)=(\d{3})$/.exec(entry);
    if (!match || !REFUSAL_CODES.has(Number(match[2])))
      throw new RefusalListError(
        `MAIL_CATCHER_REFUSE: "${entry}" is not address=code with a code of ${[...REFUSAL_CODES].join(', ')}`,
      );
    list.set(match[1]!.toLowerCase(), Number(match[2]));
  }
  return list.size === 0 ? undefined : (recipient) => list.get(recipient.toLowerCase());
}

/** `550` → `5.1.1 <gone@example.com>: no such user here (refused by the local catcher)`. */
const refusalText = (code: number, address: string) => {
  const [status, ...words] = (REFUSALS[code] ?? `${String(code)[0]}.0.0 refused`).split(' ');
  return `${status} <${address}>: ${words.join(' ')} (refused by the local catcher)`;
};

/** The response header by which the inbox names its catcher ({@link MailCatcher.id}). */
export const CATCHER_HEADER = 'x-mail-catcher';

export interface MailCatcher {
  /**
   * This catcher's own random name, sent with every inbox answer as {@link CATCHER_HEADER}: a reader that
   * knows it can tell this catcher from another process's that took the same port later.
   */
  id: string;
  smtpUrl: string;
  inboxUrl: string | undefined;
  /** Mails received so far (counted even when not kept). */
  received(): number;
  /** Each Message-ID and how often it arrived whole: a doubled mail shows as 2 (the soak counts by it). */
  deliveries(): Deliveries;
  messages(): CaughtMail[];
  /** Resolves with the first mail (already caught or arriving later) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  /** Forgets the mails kept and the Message-IDs counted (the count of {@link received} goes on). */
  clear(): void;
  /** Stops listening for SMTP (the server is "down") until {@link startSmtp}; the inbox page stays up. */
  stopSmtp(): Promise<void>;
  startSmtp(): Promise<void>;
  stop(): Promise<void>;
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function inboxPage(mails: CaughtMail[], smtpUrl: string): string {
  const rows = mails
    .slice()
    .reverse()
    .map(
      (m) => `<tr><td>${escapeHtml(new Date(m.receivedAt).toLocaleString('en-GB'))}</td>
<td>${escapeHtml(m.envelope.to.join(', '))}</td>
<td><a href="/messages/${m.id}/html">${escapeHtml(m.subject || '(no subject)')}</a></td>
<td><a href="/messages/${m.id}/text">text</a> · <a href="/messages/${m.id}">JSON</a>${m.attachments.length ? ` · ${m.attachments.length} attachment(s)` : ''}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Local mail</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="5">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#0e2230}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #d9d4c7;padding:.4rem .6rem;text-align:left;vertical-align:top}a{color:#16466e}</style></head>
<body><h1>Local mail</h1><p>Mail sent to ${escapeHtml(smtpUrl)} stops here: nothing is delivered. This page reloads every 5 s.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th><th>Views</th></tr></thead><tbody>
${rows || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table></body></html>`;
}

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const keep = options.keep ?? 1000;
  const mails: CaughtMail[] = [];
  const waiters = new Set<{ match: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }>();
  let count = 0;
  const deliveries = new Map<string, number>();
  const delivered = (messageId: string) => deliveries.set(messageId, (deliveries.get(messageId) ?? 0) + 1);

  async function onData(stream: SMTPServerDataStream, session: SMTPServerSession) {
    // Taken before parsing: mails arriving together over pooled connections each keep their own number.
    const id = (count += 1);
    if (keep === 0) {
      // Only the head is kept, for its Message-ID; the mail counts once its last byte has arrived.
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (!head.includes('\r\n\r\n') && head.length < 64 * 1024) head += chunk.toString('latin1');
      });
      // A connection dropped mid-DATA destroys the stream without an end: that mail never arrived.
      const whole = await new Promise<boolean>((resolve) => {
        stream.on('end', () => resolve(true));
        stream.on('close', () => resolve(false));
      });
      if (whole) delivered(messageIdOf(head.split('\r\n\r\n')[0]!));
      return;
    }
    const raw = options.keepRaw
      ? Buffer.concat(await Array.fromAsync(stream as AsyncIterable<Buffer>))
      : undefined;
    const parsed = await simpleParser(raw ?? stream, { skipImageLinks: true, skipTextToHtml: true });
    // The raw header lines, unfolded: what was sent, not mailparser's structured reading of it.
    const headers: Record<string, string> = {};
    for (const { key, line } of parsed.headerLines) {
      const value = line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim();
      headers[key.toLowerCase()] = headers[key.toLowerCase()]
        ? `${headers[key.toLowerCase()]}, ${value}`
        : value;
    }
    const mail: CaughtMail = {
      id,
      receivedAt: new Date().toISOString(),
      envelope: {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
      },
      messageId: parsed.messageId,
      subject: parsed.subject ?? '',
      from: addressText(parsed.from),
      to: addressText(parsed.to),
      replyTo: parsed.replyTo ? addressText(parsed.replyTo) : undefined,
      headers,
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      attachments: parsed.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content.toString('utf8'),
      })),
      ...(raw && { raw: raw.toString('utf8') }),
    };
    delivered(parsed.messageId ?? '');
    mails.push(mail);
    if (mails.length > keep) mails.shift();
    for (const waiter of waiters) {
      if (waiter.match(mail)) {
        waiters.delete(waiter);
        waiter.resolve(mail);
      }
    }
  }

  const smtp = new SMTPServer({
    name: 'korvel-mail-catcher',
    banner: 'Local mail catcher: nothing is delivered',
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: 25 * 1024 * 1024,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'local' }),
    onRcptTo: (address, _session, callback) => {
      const code = options.refuse?.(address.address);
      if (!code) return callback();
      const error = Object.assign(new Error(refusalText(code, address.address)), { responseCode: code });
      callback(error);
    },
    onData: (stream, session, callback) => {
      onData(stream, session).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  smtp.on('error', (error) => console.error('[mail catcher]', error.message));

  let smtpPort = options.smtpPort ?? 0;
  const listenSmtp = () =>
    new Promise<void>((resolve, reject) => {
      const server = smtp.server;
      server.once('error', reject);
      server.listen(smtpPort, host, () => {
        server.off('error', reject);
        smtpPort = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listenSmtp();
  const smtpUrl = `smtp://${host}:${smtpPort}`;
  const catcherId = randomUUID();

  let http: Server | undefined;
  let inboxUrl: string | undefined;
  if (options.httpPort !== false) {
    http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const [, first, id, view] = url.pathname.split('/');
      const mail = mails.find((m) => String(m.id) === id);
      const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) =>
        res
          .writeHead(status, {
            'content-type': type,
            'cache-control': 'no-store',
            [CATCHER_HEADER]: catcherId,
            ...extra,
          })
          .end(body);
      if (req.method === 'DELETE' && url.pathname === '/messages') {
        mails.length = 0;
        return send(204, 'text/plain', '');
      }
      if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', inboxPage(mails, smtpUrl));
      if (first === 'messages' && !id) return send(200, 'application/json', JSON.stringify(mails));
      if (first === 'messages' && mail && !view) return send(200, 'application/json', JSON.stringify(mail));
      if (first === 'messages' && mail && view === 'text')
        return send(200, 'text/plain; charset=utf-8', mail.text);
      if (first === 'messages' && mail && view === 'html') {
        // The mail's own HTML, sandboxed: no script, no form, no request anywhere.
        return send(200, 'text/html; charset=utf-8', mail.html, {
          'content-security-policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        });
      }
      return send(404, 'text/plain', 'Not found');
    });
    // Idle connections are closed by the client only, as in the preview: a test polling the inbox sent its next
    // request on a socket Node's five-second idle timeout had just closed (read ECONNRESET, beside a CPU hog).
    http.keepAliveTimeout = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        http!.once('error', reject);
        http!.listen(options.httpPort || 0, host, () => resolve());
      });
    } catch (error) {
      // The inbox port is taken: give the SMTP port back too, or it would catch mail nobody can read.
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      throw error;
    }
    inboxUrl = `http://${host}:${(http.address() as AddressInfo).port}`;
  }

  return {
    id: catcherId,
    smtpUrl,
    inboxUrl,
    received: () => count,
    deliveries: () => deliveries,
    messages: () => mails.slice(),
    waitFor(match, timeoutMs = 30_000) {
      const found = mails.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching mail within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    clear: () => {
      mails.length = 0;
      deliveries.clear();
    },
    stopSmtp: () =>
      new Promise<void>((resolve) => {
        smtp.server.close(() => resolve());
        // Connections the transport pool keeps open must go too, or the "outage" would not be one.
        for (const connection of (smtp as unknown as { connections: Set<{ close(): void }> }).connections)
          connection.close();
      }),
    startSmtp: listenSmtp,
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      if (http) {
        http.closeAllConnections();
        await new Promise((resolve) => http!.close(resolve));
      }
    },
  };
}
