/**
 * A body over a function's limit (scripts/lib/function-host.ts, the front of `npm run preview` and of the bundle
 * test): the client gets its 413, and neither that request nor the next one on the same keep-alive connection
 * is reset. The host runs as its own Node process over a bundle directory made here, with one function that
 * refuses a body the way src/server/http.ts's readText does: by its declared Content-Length without reading
 * it, or while it streams, by cancelling the reader. tests/e2e/api.spec.ts does the same against the preview.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const hostFile = fileURLToPath(new URL('../../scripts/lib/function-host.ts', import.meta.url));
const LIMIT = 2048;

const upload = `
const LIMIT = ${LIMIT};
const tooLarge = () => new Response('too large', { status: 413 });
export default async (req) => {
  if (Number(req.headers.get('content-length')) > LIMIT) return tooLarge();
  const reader = req.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Response(String(size));
    size += value.byteLength;
    if (size > LIMIT) {
      await reader.cancel();
      return tooLarge();
    }
  }
};
`;

let dir: string;
let host: ChildProcess;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'korvel-host-'));
  mkdirSync(join(dir, 'upload'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ functions: [{ name: 'upload', routes: [{ pattern: '/upload', methods: ['POST'] }] }] }),
  );
  writeFileSync(join(dir, 'upload', '___netlify-entry-point.mjs'), "getLambdaHandler('upload.mjs')\n");
  writeFileSync(join(dir, 'upload', 'upload.mjs'), upload);
  host = spawn(process.execPath, [hostFile, dir, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  origin = await new Promise<string>((resolve, reject) => {
    let text = '';
    host.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    host.once('exit', (code) => reject(new Error(`the function host exited with ${code}`)));
  });
});

afterAll(() => {
  host?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** An agent with one keep-alive connection that counts the sockets it opens. */
function oneConnection() {
  const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000 });
  const sockets = { opened: 0 };
  agent.on('connect', () => (sockets.opened += 1));
  return { agent, sockets };
}

async function post(agent: Agent, body: Buffer | Readable) {
  const response = await request(`${origin}/upload`, { method: 'POST', body, dispatcher: agent });
  return { status: response.statusCode, text: await response.body.text() };
}

describe('a body over the limit', () => {
  test('200 in a row with Content-Length on one keep-alive connection: every one 413, none reset', async () => {
    const { agent, sockets } = oneConnection();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) statuses.push((await post(agent, Buffer.alloc(64 * 1024, 'a'))).status);
    expect(statuses).toEqual(Array(200).fill(413));
    // The next request, within the limit, is answered on the same connection.
    expect(await post(agent, Buffer.from('fits'))).toEqual({ status: 200, text: '4' });
    expect(sockets.opened).toBe(1);
    await agent.close();
  });

  test('200 in a row streamed without Content-Length: every one 413, none reset, the next one answered', async () => {
    const { agent } = oneConnection();
    async function* chunks() {
      for (let i = 0; i < 16; i += 1) yield Buffer.alloc(4 * 1024, 'b');
    }
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) statuses.push((await post(agent, Readable.from(chunks()))).status);
    expect(statuses).toEqual(Array(200).fill(413));
    expect(await post(agent, Buffer.from('fits'))).toEqual({ status: 200, text: '4' });
    await agent.close();
  });
});
