import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type Api } from './support/harness.ts';

const ADMIN = { email: 'desk@korvel.example', password: 'a sturdy passphrase for the desk' };
let api: Api;
let token: string;

async function addInquiry(): Promise<number> {
  const [row] = await api.db.query<{ id: number }>(
    `INSERT INTO inquiries (kind, full_name, email, subject, message, privacy_version)
     VALUES ('contact', 'Nina Vuković', 'nina@plant.example', 'Tablet press room', 'ISO 8 upgrade.', 'privacy-2026-11')
     RETURNING id`,
  );
  return row!.id;
}

const handledAt = async (id: number) =>
  (
    await api.db.query<{ handled_at: Date | null }>('SELECT handled_at FROM inquiries WHERE id = $1', [id])
  )[0]!.handled_at;

beforeAll(async () => {
  api = await startApi();
  await api.createAdmin(ADMIN.email, ADMIN.password);
  token = await api.login(ADMIN.email, ADMIN.password);
});
afterAll(() => api?.close());

describe('PATCH /api/inquiries/{id}', () => {
  test('marks an inquiry as handled and answers 200 with the whole inquiry', async () => {
    const id = await addInquiry();
    const before = Date.now();
    const reply = await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: true } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toMatchObject({
      id,
      kind: 'contact',
      fullName: 'Nina Vuković',
      subject: 'Tablet press room',
    });
    expect(Date.parse(reply.body.handledAt)).toBeGreaterThanOrEqual(before - 5000);
    expect(await handledAt(id)).not.toBeNull();
  });

  test('keeps the first handled time when marked handled twice', async () => {
    const id = await addInquiry();
    const first = await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: true } });
    const second = await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: true } });
    expect(second.status).toBe(200);
    expect(second.body.handledAt).toBe(first.body.handledAt);
  });

  test('opens a handled inquiry again with handled false', async () => {
    const id = await addInquiry();
    await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: true } });
    const reply = await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: false } });
    expect(reply.status).toBe(200);
    expect(reply.body.handledAt).toBeNull();
    expect(await handledAt(id)).toBeNull();
  });

  test('the list shows the new state', async () => {
    const id = await addInquiry();
    await api.call('PATCH', `/api/inquiries/${id}`, { token, json: { handled: true } });
    const list = await api.call('GET', '/api/inquiries', { token });
    const listed = list.body.find((i: { id: number }) => i.id === id);
    expect(listed.handledAt).not.toBeNull();
  });
});
