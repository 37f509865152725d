/**
 * The admin island's calls (DESIGN §4). The token travels only in the Authorization header; a failed call
 * becomes an {@link ApiError} carrying the HTTP status (0 when the server could not be reached).
 */
import type { MeetingDecisionInput } from '../../../lib/schemas.ts';
// The shapes the functions answer with, as the server defines them (types only: no server code ships).
import type { Inquiry } from '../../../server/repositories/inquiries.ts';
import type { InquiryMail } from '../../../server/repositories/outbox.ts';
import type { Campaign, CampaignFailure } from '../../../server/repositories/campaigns.ts';
import type { CampaignInput } from '../../../lib/campaign-schema.ts';
import type { Lang } from '../../../i18n/lang.ts';
import type { Insights } from '../../../server/repositories/insight.ts';
import type { Suppression, SuppressionReason } from '../../../server/repositories/suppressions.ts';
import type { SubscriberRecord } from '../../../server/repositories/subscriber-record.ts';
import { attachmentName } from './download.ts';
import type { Deliverability } from '../../../server/mail/suppression.ts';
import type { ImportMode, ImportStatus } from '../../../server/repositories/imports.ts';
import type { ImportField } from '../../../lib/csv-text.ts';
import type {
  Subscriber,
  SubscriberSort,
  SubscriberStatus,
} from '../../../server/repositories/subscribers.ts';

export type {
  ImportField,
  ImportMode,
  ImportStatus,
  Campaign,
  CampaignFailure,
  Deliverability,
  Suppression,
  SuppressionReason,
  Insights,
  Inquiry,
  InquiryMail,
  Subscriber,
  SubscriberRecord,
  SubscriberSort,
  SubscriberStatus,
};

/** A list tab's data: what the last call brought, and whether it is still coming or failed. */
export interface ListState<Row> {
  status: 'loading' | 'ready' | 'failed';
  rows: Row[];
  total: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The server's `error.code`, e.g. `last_owner` or `validation_failed`, when it sent one. */
  readonly code: string | undefined;
  /** The server's per-field messages of a 400 `validation_failed`. */
  readonly fields: Readonly<Record<string, string>>;
  constructor(status: number, code?: string, fields: Record<string, string> = {}) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}`);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** The session is over (401) or not allowed (403): the caller signs the admin out. */
export const isAuthError = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

/** A failed call with this HTTP status and, if given, this error code. */
export const isApiError = (error: unknown, status: number, code?: string): error is ApiError =>
  error instanceof ApiError && error.status === status && (code === undefined || error.code === code);

/** Reads `{error: {code, fields}}` from a failed reply; a body of another shape gives neither. */
async function errorFrom(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; fields?: unknown } };
    const code = typeof body.error?.code === 'string' ? body.error.code : undefined;
    const fields = body.error?.fields;
    const strings =
      fields && typeof fields === 'object'
        ? Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string'))
        : {};
    return new ApiError(response.status, code, strings as Record<string, string>);
  } catch {
    return new ApiError(response.status);
  }
}

/** Called after every call the server accepted with a token: the session's idle clock starts again. */
let onAuthorisedCall: (() => void) | undefined;
export function watchAuthorisedCalls(listener: (() => void) | undefined): void {
  onAuthorisedCall = listener;
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export interface CallOptions {
  token?: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  /** A body of another type (a CSV upload); `json` is for everything else. */
  body?: Blob;
  signal?: AbortSignal;
}

export async function call(
  path: string,
  { token, method = 'GET', json, body, signal }: CallOptions,
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  if (body) headers['content-type'] = body.type;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: json === undefined ? body : JSON.stringify(json),
      signal,
      cache: 'no-store',
      credentials: 'same-origin',
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0);
  }
  if (!response.ok) throw await errorFrom(response);
  if (token) onAuthorisedCall?.();
  return response;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export async function page<T>(response: Response): Promise<Page<T>> {
  const rows = (await response.json()) as T[];
  const total = Number(response.headers.get('x-total-count'));
  return { rows, total: Number.isFinite(total) ? total : rows.length };
}

/** A second-factor method the server offers after the password step. */
export type FactorMethod = 'totp' | 'passkey' | 'recovery';

/**
 * What the password step leads to: a full session, a session that may only enrol a factor, or the second
 * step with its ticket and the methods this account has.
 */
export type SignInStep =
  | { kind: 'signed-in'; token: string }
  | { kind: 'enrol'; token: string }
  | { kind: 'mfa'; ticket: string; methods: FactorMethod[] };

export async function signIn(email: string, password: string): Promise<SignInStep> {
  const response = await call('/admin/login', { method: 'POST', json: { email, password } });
  const body = (await response.json()) as {
    token?: unknown;
    enrol?: unknown;
    mfa?: { ticket?: unknown; methods?: unknown };
  };
  if (typeof body.token === 'string' && body.token)
    return { kind: body.enrol === true ? 'enrol' : 'signed-in', token: body.token };
  const { ticket, methods } = body.mfa ?? {};
  if (typeof ticket === 'string' && Array.isArray(methods)) {
    const known = methods.filter((m): m is FactorMethod => ['totp', 'passkey', 'recovery'].includes(m));
    if (known.length > 0) return { kind: 'mfa', ticket, methods: known };
  }
  throw new ApiError(response.status);
}

/** A full session token from a reply `{token}`; anything else is a failed call. */
export async function tokenFrom(response: Response): Promise<string> {
  const body = (await response.json()) as { token?: unknown };
  if (typeof body.token !== 'string' || !body.token) throw new ApiError(response.status);
  return body.token;
}

/** Revokes every token of this admin on the server (DESIGN §5, `tokens_valid_after`). */
export async function signOut(token: string): Promise<void> {
  await call('/admin/logout', { method: 'POST', token });
}

export interface SubscriberQuery {
  q: string;
  sort: SubscriberSort;
  /** Empty: every address. */
  status: SubscriberStatus | '';
  page: number;
  pageSize: number;
}

export async function fetchSubscriberPage(
  token: string,
  query: SubscriberQuery,
  signal?: AbortSignal,
): Promise<Page<Subscriber>> {
  const params = new URLSearchParams({
    sort: query.sort,
    page: String(query.page),
    pageSize: String(query.pageSize),
  });
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  return page<Subscriber>(await call(`/api/newsletter?${params}`, { token, signal }));
}

/** Every subscriber (or every one with `status`), ordered by id: the SPEC call without paging parameters. */
export async function fetchAllSubscribers(token: string, status?: SubscriberStatus): Promise<Subscriber[]> {
  const query = status ? `?status=${status}` : '';
  return (await page<Subscriber>(await call(`/api/newsletter${query}`, { token }))).rows;
}

/** Erases a subscriber's data; only the hash of the address stays on the suppression list. */
export async function eraseSubscriber(token: string, id: number): Promise<void> {
  await call(`/api/newsletter/${id}`, { method: 'DELETE', token });
}

/** One subscriber's whole record. */
export async function fetchSubscriberRecord(
  token: string,
  id: number,
  signal?: AbortSignal,
): Promise<SubscriberRecord> {
  return (await (await call(`/api/newsletter/${id}`, { token, signal })).json()) as SubscriberRecord;
}

/** A subscriber's data export (GDPR Art. 15/20) as the file the server names. */
export async function exportSubscriber(token: string, id: number): Promise<{ file: Blob; name: string }> {
  const response = await call(`/api/newsletter/${id}/export`, { token });
  return { file: await response.blob(), name: attachmentName(response, `korvel-subscriber-${id}.json`) };
}

export async function fetchInquiryPage(
  token: string,
  paging: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<Page<Inquiry>> {
  const params = new URLSearchParams({ page: String(paging.page), pageSize: String(paging.pageSize) });
  return page<Inquiry>(await call(`/api/inquiries?${params}`, { token, signal }));
}

export async function setInquiryHandled(token: string, id: number, handled: boolean): Promise<Inquiry> {
  return (await (
    await call(`/api/inquiries/${id}`, { method: 'PATCH', token, json: { handled } })
  ).json()) as Inquiry;
}

/** Confirms a meeting request with its video-call link, or declines it with a note; the visitor is e-mailed. */
export async function decideMeeting(
  token: string,
  id: number,
  decision: MeetingDecisionInput,
): Promise<Inquiry> {
  return (await (
    await call(`/api/inquiries/${id}/meeting`, { method: 'POST', token, json: decision })
  ).json()) as Inquiry;
}

/** Queues a failed mail again. */
export async function retryMail(token: string, id: number): Promise<InquiryMail> {
  return (await (await call(`/api/mail/${id}/retry`, { method: 'POST', token })).json()) as InquiryMail;
}

/** A campaign as GET /api/campaigns/{id} answers: with its undelivered copies. */
export type CampaignDetail = Campaign & { failures: CampaignFailure[] };

export async function fetchCampaignPage(
  token: string,
  paging: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<Page<Campaign>> {
  const params = new URLSearchParams({ page: String(paging.page), pageSize: String(paging.pageSize) });
  return page<Campaign>(await call(`/api/campaigns?${params}`, { token, signal }));
}

export async function fetchCampaign(
  token: string,
  id: number,
  signal?: AbortSignal,
): Promise<CampaignDetail> {
  return (await (await call(`/api/campaigns/${id}`, { token, signal })).json()) as CampaignDetail;
}

/** Creates the draft (no id yet) or saves it; resolves to its id. */
export async function saveCampaign(
  token: string,
  id: number | null,
  content: CampaignInput,
): Promise<number> {
  if (id === null) {
    const response = await call('/api/campaigns', { method: 'POST', token, json: content });
    return ((await response.json()) as { id: number }).id;
  }
  await call(`/api/campaigns/${id}`, { method: 'PATCH', token, json: content });
  return id;
}

/** Schedules a draft for an instant (ISO), moves it, or with null takes it off the schedule. */
export async function scheduleCampaign(
  token: string,
  id: number,
  scheduledAt: string | null,
): Promise<Campaign> {
  const response = await call(`/api/campaigns/${id}`, { method: 'PATCH', token, json: { scheduledAt } });
  return (await response.json()) as Campaign;
}

/** A new draft with the content of any issue; resolves to the draft's id. */
export async function duplicateCampaign(token: string, id: number): Promise<number> {
  const response = await call(`/api/campaigns/${id}/duplicate`, { method: 'POST', token });
  return ((await response.json()) as { id: number }).id;
}

/** Lists the issue in the public archive, or takes it out. */
export async function setCampaignArchive(
  token: string,
  id: number,
  inArchive: boolean,
): Promise<CampaignDetail> {
  const response = await call(`/api/campaigns/${id}/archive`, { method: 'PUT', token, json: { inArchive } });
  return (await response.json()) as CampaignDetail;
}

/** How many subscribers a send of the saved campaign would reach now (GET /api/campaigns/{id}/audience). */
export async function fetchAudience(token: string, id: number): Promise<number> {
  return ((await (await call(`/api/campaigns/${id}/audience`, { token })).json()) as { count: number }).count;
}

export async function deleteCampaign(token: string, id: number): Promise<void> {
  await call(`/api/campaigns/${id}`, { method: 'DELETE', token });
}

/**
 * `test` → one copy to the signed-in admin; `send` → every confirmed subscriber; `cancel` stops a send.
 * `confirmComplaints`: the owner's word that an issue goes out while complaints are above 0.3 %.
 */
export async function campaignAction(
  token: string,
  id: number,
  action: 'test' | 'send' | 'cancel',
  confirmComplaints = false,
) {
  const json = confirmComplaints ? { confirmComplaints: true } : undefined;
  return (await call(`/api/campaigns/${id}/${action}`, { method: 'POST', token, json })).json() as Promise<
    Record<string, unknown>
  >;
}

export interface SuppressionQuery {
  q: string;
  /** Empty: every reason. */
  reason: SuppressionReason | '';
  page: number;
  pageSize: number;
}

export async function fetchSuppressionPage(
  token: string,
  query: SuppressionQuery,
  signal?: AbortSignal,
): Promise<Page<Suppression>> {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.q) params.set('q', query.q);
  if (query.reason) params.set('reason', query.reason);
  return page<Suppression>(await call(`/api/suppressions?${params}`, { token, signal }));
}

/** The whole list for the CSV export (the activity log records it). */
export async function fetchAllSuppressions(token: string): Promise<Suppression[]> {
  return (await page<Suppression>(await call('/api/suppressions?purpose=export', { token }))).rows;
}

/** Lifts a bounce suppression (owner only). */
export async function liftSuppression(token: string, id: number): Promise<void> {
  await call(`/api/suppressions/${id}`, { method: 'DELETE', token });
}

/** The last 30 days' bounce and complaint rates, with the admin's warnings. */
export async function fetchDeliverability(token: string, signal?: AbortSignal): Promise<Deliverability> {
  return (await (await call('/api/deliverability', { token, signal })).json()) as Deliverability;
}

export interface MailPreview {
  subject: string;
  html: string;
  text: string;
}

export async function previewCampaign(
  token: string,
  content: CampaignInput,
  signal?: AbortSignal,
): Promise<MailPreview> {
  return (await (
    await call('/api/campaign-preview', { method: 'POST', token, json: content, signal })
  ).json()) as MailPreview;
}

/** How many subscribers a send of an issue in `lang` would reach now: the confirmed ones of that language. */
export async function countConfirmed(token: string, lang: Lang, signal?: AbortSignal): Promise<number> {
  const query = new URLSearchParams({ status: 'confirmed', lang, page: '1', pageSize: '1' });
  const response = await call(`/api/newsletter?${query}`, { token, signal });
  return (await page<Subscriber>(response)).total;
}

/** The admin Overview's figures for the UTC days `from`…`to` (inclusive, `YYYY-MM-DD`). */
export async function fetchInsights(
  token: string,
  range: { from: string; to: string },
  signal?: AbortSignal,
): Promise<Insights> {
  const query = new URLSearchParams(range);
  const response = await call(`/api/insights?${query}`, { token, signal });
  return (await response.json()) as Insights;
}

/** What an import is told besides its file: mode, source, the column of each mapped field and the defaults. */
export interface ImportSettings {
  mode: ImportMode;
  source: string;
  mapping: Partial<Record<ImportField, string>>;
  defaultLang: Lang;
  /** `YYYY-MM-DD`, for rows without a consent date of their own; empty for none. */
  consentedOn: string;
}

/** Uploads a contact list (a CSV file, or pasted text as UTF-8 CSV); resolves to the new import's id. */
export async function startImport(token: string, file: Blob, settings: ImportSettings): Promise<number> {
  const query = new URLSearchParams({
    mode: settings.mode,
    source: settings.source,
    defaultLang: settings.defaultLang,
  });
  if (settings.consentedOn) query.set('consentedOn', settings.consentedOn);
  for (const [field, column] of Object.entries(settings.mapping)) if (column) query.set(field, column);
  const body = new Blob([file], { type: 'text/csv' });
  const response = await call(`/api/subscribers/import?${query}`, { method: 'POST', token, body });
  return ((await response.json()) as { id: number }).id;
}

export async function fetchImport(token: string, id: number, signal?: AbortSignal): Promise<ImportStatus> {
  return (await (await call(`/api/subscribers/import/${id}`, { token, signal })).json()) as ImportStatus;
}

export async function cancelImport(token: string, id: number): Promise<ImportStatus> {
  return (await (
    await call(`/api/subscribers/import/${id}/cancel`, { method: 'POST', token })
  ).json()) as ImportStatus;
}

/** The import's report as CSV text. */
export async function fetchImportReport(token: string, id: number): Promise<string> {
  return (await call(`/api/subscribers/import/${id}/report`, { token })).text();
}
