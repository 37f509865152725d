import { describe, expect, test } from 'vitest';
import { HttpError, readJson, route } from '../../src/server/http.ts';

/** A POST whose body arrives in chunks with no Content-Length, as a chunked upload does. */
function streamed(chunks: string[], type = 'application/json'): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Request('http://localhost/api', {
    method: 'POST',
    body,
    headers: { 'content-type': type },
    duplex: 'half',
  } as RequestInit);
}

describe('readJson', () => {
  test('stops reading a body without Content-Length as soon as it passes the cap', async () => {
    const error = await readJson(streamed(['{"a":"', 'x'.repeat(600), 'x'.repeat(600), '"}']), 1000).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(413);
  });

  test('accepts application/json with charset=utf-8, in any case', async () => {
    expect(await readJson(streamed(['{"ok":true}'], 'Application/JSON; Charset="UTF-8"'), 100)).toEqual({
      ok: true,
    });
  });
});

describe('route', () => {
  test('answers HEAD like GET, without a body', async () => {
    const handler = route('probe', { GET: async () => Response.json({ ok: true }) });
    const reply = await handler(new Request('http://localhost/', { method: 'HEAD' }), {
      ip: '127.0.0.1',
      params: {},
    });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe('');
  });

  test('turns an unexpected throw into a generic 500 without the message', async () => {
    const original = console.error;
    console.error = () => undefined;
    const handler = route('probe', {
      GET: async () => {
        throw new Error('relation "secrets" does not exist');
      },
    });
    const reply = await handler(new Request('http://localhost/'), { ip: '127.0.0.1', params: {} });
    console.error = original;
    expect(reply.status).toBe(500);
    expect(await reply.text()).not.toContain('secrets');
  });
});
