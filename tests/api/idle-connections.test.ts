/**
 * A test may keep its worker busy in synchronous work (git, scrypt) for longer than Node's keep-alive (5 s announced, 6 s kept). The
 * harness's server and the neon proxy leave idle connections to the client to close, so the next call after
 * such a pause does not land on a socket the server has just closed ("fetch failed: other side closed", which
 * turned a CI run red). This test failed on both before they did.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type Api } from './support/harness.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.close());

/** Blocks this worker's event loop, as a long synchronous step does. */
const busy = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test('a call and a query after the worker was busy for longer than a server keep-alive', async () => {
  expect((await api.call('GET', '/api/health')).status).toBe(200);
  await api.db.query('SELECT 1');
  busy(6_500);
  expect((await api.call('GET', '/api/health')).status).toBe(200);
  expect(await api.db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
});
