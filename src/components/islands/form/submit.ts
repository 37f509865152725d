/**
 * Sending a form island's JSON to /api/contact: the client-side check with the function's own schema, one
 * request at a time, the reply sorted into field errors or a general message, and the summary focused.
 */
import { useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { validate, type FormWords } from '../../../lib/schemas.ts';

export type Outcome =
  | { ok: true; next: string }
  | { ok: false; fields: Record<string, string>; message?: string; status: number };

export interface SubmitCopy {
  /** Shown when the request never got an answer (offline, DNS, a dropped connection). */
  network: string;
  /** Shown for a 5xx: the message was not stored. */
  server: string;
  /** The words of the schema's message ids in the page's language (`forms:errors`). */
  words: FormWords;
}

export async function submitJson(url: string, body: unknown, copy: SubmitCopy): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, fields: {}, message: copy.network, status: 0 };
  }
  const reply = (await response.json().catch(() => undefined)) as
    { next?: string; error?: { message?: string; fields?: Record<string, string> } } | undefined;
  if (response.ok) return { ok: true, next: reply?.next ?? '/thanks' };
  const fields = reply?.error?.fields ?? {};
  const message =
    response.status >= 500 ? copy.server : Object.keys(fields).length ? undefined : reply?.error?.message;
  return { ok: false, fields, message, status: response.status };
}

/** The honeypot's value, sent only when a bot filled it in. */
export function trapValue(form: HTMLFormElement | null): { website?: string } {
  const website = (form?.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '';
  return website ? { website } : {};
}

/** State and the submit action shared by the contact and booking islands. */
export function useSubmission(copy: SubmitCopy) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  const [sending, setSending] = useState(false);
  const inFlight = useRef(false);
  const summary = useRef<HTMLDivElement>(null);

  const showErrors = (fields: Record<string, string>, message?: string) => {
    setErrors(fields);
    setGeneral(message);
    // After React has rendered the summary.
    requestAnimationFrame(() => summary.current?.focus());
  };

  /**
   * Checks `body` with `schema`, posts it and, on success, goes to the page the function names (/thanks).
   * Returns the failed outcome, or undefined when nothing was sent or the page is leaving.
   */
  async function submit(
    schema: z.ZodMiniType,
    body: unknown,
  ): Promise<Extract<Outcome, { ok: false }> | undefined> {
    if (inFlight.current) return undefined;
    const checked = validate(schema, body, copy.words);
    if (!checked.ok) {
      showErrors(checked.fields);
      return undefined;
    }
    inFlight.current = true;
    setSending(true);
    const outcome = await submitJson('/api/contact', body, copy);
    if (outcome.ok) {
      window.location.assign(outcome.next);
      return undefined;
    }
    inFlight.current = false;
    setSending(false);
    showErrors(outcome.fields, outcome.message);
    return outcome;
  }

  return { errors, general, sending, summary, submit };
}
