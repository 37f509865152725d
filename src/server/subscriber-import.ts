/**
 * POST /api/subscribers/import, GET /api/subscribers/import/{id}, POST /api/subscribers/import/{id}/cancel and
 * GET /api/subscribers/import/{id}/report (owner, editor): the firm's existing contacts onto the newsletter list
 * (issue 36). The upload is read and checked whole before anything is stored (src/server/import-file.ts); the
 * rows are then applied as a job, right after the reply and, should that run end early, by the scheduled worker.
 */
import { stringify } from 'csv-stringify/sync';
import { isLang } from '../i18n/lang.ts';
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { database } from './config.ts';
import type { Db } from './db/index.ts';
import { HttpError, json, readBytes, type Handler } from './http.ts';
import {
  consentDate,
  decodeCsv,
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  IMPORT_SOURCE_MAX,
  readImport,
  type ImportField,
} from './import-file.ts';
import { onlyParams, rowId } from './query.ts';
import { recordActivity } from './repositories/activity.ts';
import {
  abandonedImports,
  applyImportChunk,
  cancelImport,
  createImport,
  IMPORT_MODES,
  importReport,
  importStatus,
  leaseImport,
  type ImportMode,
} from './repositories/imports.ts';

/** How long the run right after an upload works before leaving the rest to the scheduled worker. */
export const IMPORT_RUN_MS = 25_000;

/**
 * Applies a job's waiting rows chunk by chunk until none is left, it is cancelled, or `deadline` passes; a run
 * that cannot take the job (another holds it) does nothing.
 */
export async function runImport(db: Db, id: number, deadline = Date.now() + IMPORT_RUN_MS): Promise<void> {
  if (!(await leaseImport(db, id))) return;
  while (Date.now() < deadline && (await applyImportChunk(db, id)));
  // Whatever is left is the scheduled worker's at its next run.
  await db.query(`UPDATE subscriber_imports SET lease_until = NULL WHERE id = $1 AND state = 'running'`, [
    id,
  ]);
}

/** The scheduled worker's part: finishes jobs whose run ended early, oldest first, until `deadline`. */
export async function resumeImports(db: Db, deadline: number): Promise<number> {
  const ids = await abandonedImports(db);
  for (const id of ids) {
    if (Date.now() >= deadline) break;
    await runImport(db, id, deadline);
  }
  return ids.length;
}

/** The upload's media type must be text/csv; its charset, when declared, says how to read it. */
function csvCharset(req: Request): string | undefined {
  const [media, ...parameters] = (req.headers.get('content-type') ?? '')
    .split(';')
    .map((part) => part.trim().toLowerCase());
  if (media !== 'text/csv')
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the contact list as text/csv (UTF-8 or Windows-1252).',
    );
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  if (charset && !['utf-8', 'windows-1252', 'iso-8859-1', 'latin1'].includes(charset))
    throw new HttpError(415, 'unsupported_charset', 'The file must be UTF-8 or Windows-1252.');
  return charset;
}

const invalid = (message: string) => new HttpError(400, 'invalid_query', message);

/** The import's settings from the query: mode, source, column mapping and the defaults of rows. */
function settingsOf(params: URLSearchParams) {
  onlyParams(params, ['mode', 'source', 'defaultLang', 'consentedOn', ...IMPORT_FIELDS]);
  const mode = params.get('mode');
  if (!IMPORT_MODES.includes(mode as ImportMode))
    throw invalid(
      '"mode" is "consented" (the firm holds each person\'s consent) or "confirm" (each new address gets the confirmation mail).',
    );
  const source = params.get('source')?.trim() ?? '';
  if (source === '' || source.length > IMPORT_SOURCE_MAX)
    throw invalid(
      `"source" says where these contacts come from, e.g. "Achema 2026 stand, signed form" (1 to ${IMPORT_SOURCE_MAX} characters).`,
    );
  const defaultLang = params.get('defaultLang') ?? 'en';
  if (!isLang(defaultLang)) throw invalid('"defaultLang" is "en" or "de".');
  const on = params.get('consentedOn');
  const defaultConsentDate = on === null ? null : (consentDate(on) ?? null);
  if (on !== null && !defaultConsentDate) throw invalid('"consentedOn" is a date such as 2026-03-17.');
  const mapping: Partial<Record<ImportField, string>> = {};
  for (const field of IMPORT_FIELDS) {
    const column = params.get(field);
    if (column !== null) mapping[field] = column;
  }
  return { mode: mode as ImportMode, source, defaultLang, defaultConsentDate, mapping };
}

export const startImportHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  const settings = settingsOf(new URL(req.url).searchParams);
  const charset = csvCharset(req);
  const text = decodeCsv(await readBytes(req, IMPORT_MAX_BYTES), charset);
  const { rows } = readImport(text, {
    mapping: settings.mapping,
    defaultLang: settings.defaultLang,
    defaultConsentDate: settings.defaultConsentDate,
    needsConsentDate: settings.mode === 'consented',
    now: new Date(),
  });
  const id = await createImport(db, {
    createdBy: admin.id,
    mode: settings.mode,
    source: settings.source,
    rows,
  });
  await recordActivity(db, {
    actor: admin,
    action: 'subscribers.import',
    target: `import ${id}: ${rows.length} rows, ${settings.mode === 'consented' ? 'consent on record' : 'asking for consent'}, source "${settings.source.slice(0, 80)}"`,
    ip: context.ip,
  });
  const run = runImport(db, id).catch((error: unknown) => {
    console.error(`[subscriber-import] import ${id} stopped; the scheduled worker takes it over`, error);
  });
  if (context.waitUntil) context.waitUntil(run);
  return json(202, { id }, { location: `/api/subscribers/import/${id}` });
};

/** The job, or 404. */
async function jobOf(db: Db, raw: string | undefined) {
  const id = rowId(raw);
  const status = await importStatus(db, id);
  if (!status) throw new HttpError(404, 'not_found', `There is no import ${id}.`);
  return status;
}

export const importStatusHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  onlyParams(new URL(req.url).searchParams, []);
  return json(200, await jobOf(db, context.params.id));
};

export const cancelImportHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  const job = await jobOf(db, context.params.id);
  if (!(await cancelImport(db, job.id)))
    throw new HttpError(
      409,
      'not_running',
      `Import ${job.id} has ${job.state === 'done' ? 'finished' : 'been cancelled'} already.`,
    );
  await recordActivity(db, {
    actor: admin,
    action: 'subscribers.import_cancel',
    target: `import ${job.id}`,
    ip: context.ip,
  });
  return json(200, await jobOf(db, context.params.id));
};

/** What the report says of a row the job never reached (it was cancelled first). */
const NOT_REACHED = 'not imported: the import was cancelled first';

export const importReportHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.subscribers, context);
  onlyParams(new URL(req.url).searchParams, []);
  const job = await jobOf(db, context.params.id);
  const lines = await importReport(db, job.id);
  const csv = stringify(
    lines.map((row) => [
      row.line,
      row.email ?? '',
      row.outcome ?? (job.state === 'cancelled' ? 'not imported' : 'waiting'),
      row.reason ?? (row.outcome === null && job.state === 'cancelled' ? NOT_REACHED : ''),
    ]),
    { header: true, columns: ['line', 'email', 'outcome', 'reason'], escape_formulas: true },
  );
  // The BOM makes Excel read the file as UTF-8, so umlauts in addresses come out right.
  return new Response(`\uFEFF${csv}`, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="korvel-import-${job.id}-report.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
};
