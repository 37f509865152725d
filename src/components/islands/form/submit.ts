/** Sends a form island's JSON to a function and sorts the reply into what the form shows next. */

export type Outcome =
  | { ok: true; next: string }
  | { ok: false; fields: Record<string, string>; message?: string; status: number };

export interface SubmitCopy {
  /** Shown when the request never got an answer (offline, DNS, a dropped connection). */
  network: string;
  /** Shown for a 5xx: the message was not stored. */
  server: string;
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
