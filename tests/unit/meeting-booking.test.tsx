// @vitest-environment jsdom
/**
 * The booking island when someone else requests the chosen time first: the function answers 409 `slot_taken`,
 * the island fetches the times again, and the form, with everything the visitor typed into it, stays on screen.
 * The answers are those GET /api/meeting-slots and POST /api/contact give (the real exchange runs end to end in
 * contact.spec and meetings.spec).
 */
import { act } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import MeetingBooking from '../../src/components/islands/MeetingBooking.tsx';
import { getT } from '../../src/i18n/index.ts';
import { meetingBookingCopy } from '../../src/i18n/island-copy.ts';
import { reactRoot } from './support/react-root.ts';

const TAKEN = '2026-12-01T08:00:00.000Z';
const FREE = '2026-12-01T08:30:00.000Z';
const day = (available: boolean) => ({
  days: [
    {
      date: '2026-12-01',
      slots: [
        { start: TAKEN, available },
        { start: FREE, available: true },
      ],
    },
  ],
});

const dom = reactRoot();
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Types into a field as a visitor does: the value, then the input event React listens for. */
function type(field: HTMLInputElement, text: string) {
  field.value = text;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

test('a time taken meanwhile is offered no more, and what the visitor typed stays in the form', async () => {
  const t = await getT('en');
  const taken = t('forms:errors.slot_taken');
  // The times arrive again only when the test says so, as over a network: the island renders in between.
  let reloaded!: () => void;
  const reload = new Promise<void>((resolve) => (reloaded = resolve));
  const answers = [
    async () => Response.json(day(true)),
    async () =>
      Response.json(
        { error: { code: 'slot_taken', message: taken, fields: { slot: taken } } },
        { status: 409 },
      ),
    async () => {
      await reload;
      return Response.json(day(false));
    },
  ];
  const fetchMock = vi.fn(async () => answers.shift()!());
  vi.stubGlobal('fetch', fetchMock);
  await act(async () =>
    dom.root.render(<MeetingBooking copy={meetingBookingCopy(t, '/privacy-policy', 'en-GB')} />),
  );
  const form = dom.container.querySelector('form')!;
  const field = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
  const slot = (start: string) =>
    form.querySelector<HTMLInputElement>(`input[name="slot"][value="${start}"]`);

  act(() => slot(TAKEN)!.click());
  type(field('fullName'), 'Dragan Nikolić');
  type(field('email'), 'dragan@plant.example');
  type(field('subject'), 'Water-for-injection loop: scope of a revamp');
  act(() => field('privacy').click());
  // The page has been open long enough for a person: the form sends how long (fillMs).
  vi.spyOn(performance, 'now').mockReturnValue(8000);
  await act(async () => form.requestSubmit());
  await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
  // While the times reload, the form stays.
  expect(dom.container.querySelector('form')).toBe(form);
  await act(async () => reloaded());

  expect(dom.container.querySelector('form')).toBe(form);
  expect(slot(TAKEN)).toBeNull();
  expect(slot(FREE)).not.toBeNull();
  expect(field('fullName').value).toBe('Dragan Nikolić');
  expect(field('email').value).toBe('dragan@plant.example');
  expect(field('subject').value).toBe('Water-for-injection loop: scope of a revamp');
  expect(field('privacy').checked).toBe(true);
  expect(form.querySelector('[role="alert"]')!.textContent).toContain(taken);
});
