/** The preview server a page benchmark measures against, started on its own port and stopped by the caller. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { freePort } from '../lib/ports.ts';

/**
 * A benchmark stopped by a signal (Ctrl-C, `timeout`'s or a CI runner's SIGTERM) exits, so that its `exit`
 * handlers stop what it started: without them the preview and a browser outlived it and kept the port.
 */
export function exitOnSignals(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(code));
}

/** Starts `scripts/preview.ts` on `port` and resolves once it serves; rejects if it exits first. */
export async function startPreview(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['scripts/preview.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  exitOnSignals();
  process.once('exit', () => server.kill('SIGTERM'));
  await new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Preview:') && resolve());
    server.on('exit', (code) => reject(new Error(`preview server exited with ${code}`)));
  });
  return server;
}

/** Headers HTTP/2 forbids (RFC 9113, 8.2.2) or that belong to one hop only. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** The preview as a visitor reaches the deployed site: where it answers, and what Chromium needs to trust it. */
export interface SecurePreview {
  /** Stops the front, its connections and the preview. */
  stop(): void;
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** The preview itself, over plain HTTP: for a script's own requests, which need no certificate. */
  plainOrigin: string;
  /** Trusts this run's throwaway certificate, and only it (Chromium needs a `--user-data-dir` beside it). */
  chromiumFlags: string[];
}

/**
 * The preview over HTTPS with HTTP/2, as Netlify's CDN serves every page: `scripts/preview.ts` on a port of
 * its own, and in front of it, on `port`, a TLS server speaking HTTP/2 (HTTP/1.1 to a client without ALPN)
 * that hands each request to the preview over a kept-alive loopback connection, answer and encoding unchanged.
 * The certificate is made for this run (EC P-256, 127.0.0.1, one day) and never written to disk.
 *
 * It matters to Lighthouse's simulated network: over plain HTTP/1.1 each request that overlaps another opens
 * a connection of its own, with its own handshake and slow start, and the first saves the TLS round trip that
 * every real visit pays; over HTTP/2 the page's fonts and pictures share the page's warmed connection
 * (README, "First-visit bytes").
 */
export async function startSecurePreview(port: number): Promise<SecurePreview> {
  const inner = await freePort();
  const server = await startPreview(inner);
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const spki = createHash('sha256')
    .update(new X509Certificate(pems.cert).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
  const agent = new Agent({ keepAlive: true });
  const forward = (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (!name.startsWith(':') && !HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    headers.host = `127.0.0.1:${port}`;
    const upstream = request(
      { host: '127.0.0.1', port: inner, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const back: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (!HOP_BY_HOP.has(name) && value !== undefined) back[name] = value;
        res.writeHead(answer.statusCode ?? 502, back);
        // A browser that gives up on a request (a navigation moves on) resets its stream: drop the rest.
        res.once('close', () => answer.complete || answer.destroy());
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`The preview did not answer: ${error.message}`);
    });
    req.pipe(upstream);
  };
  const front = createSecureServer({ key: pems.private, cert: pems.cert, allowHTTP1: true }, forward);
  const sockets = new Set<TLSSocket>();
  front.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, '127.0.0.1', resolve);
  });
  const stop = () => {
    front.close();
    for (const socket of sockets) socket.destroy();
    agent.destroy();
    server.kill('SIGTERM');
  };
  process.once('exit', stop);
  return {
    stop,
    origin: `https://127.0.0.1:${port}`,
    plainOrigin: `http://127.0.0.1:${inner}`,
    chromiumFlags: [`--ignore-certificate-errors-spki-list=${spki}`],
  };
}
