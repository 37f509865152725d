import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  decodeCsvText,
  guessColumn,
  headerOf,
  IMPORT_FIELDS,
  isBinary,
  pastedCsv,
  type ImportField,
} from '../../../lib/csv-text.ts';
import type { Lang } from '../../../i18n/lang.ts';
import {
  ApiError,
  cancelImport,
  fetchImport,
  fetchImportReport,
  isAuthError,
  startImport,
  type ImportMode,
  type ImportStatus,
} from './api.ts';
import type { ImportCopy } from './copy.ts';
import { downloadCsv } from './download.ts';
import { fill } from './format.ts';
import type { ToastTone } from './Toasts.tsx';

/** The server refuses larger files (413); the admin says so before uploading. */
const MAX_BYTES = 10 * 1024 * 1024;
/** How often a running import's progress is asked for. */
export const POLL_MS = 1000;
/** Rejected rows listed on screen; the report has them all. */
const SHOWN_REJECTIONS = 10;

/** Error codes of the upload that have words of their own in the copy (`error_<code>`). */
const KNOWN_ERRORS = [
  'too_many_rows',
  'formula_cells',
  'no_email_column',
  'unknown_column',
  'no_consent_date',
  'not_csv',
  'invalid_csv',
  'empty_file',
  'payload_too_large',
] as const;

interface Props {
  token: string;
  copy: ImportCopy;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  /** Called when an import ends, so the list below shows the new subscribers. */
  onFinished: () => void;
}

/** The list to upload: the chosen file as it is, or the pasted text as UTF-8 CSV. */
type Upload = { kind: 'file'; blob: Blob; name: string } | { kind: 'paste'; blob: Blob };

/**
 * The Subscribers tab's import (issue 36): a CSV file or a pasted list, its columns mapped on screen, the
 * consent mode and source, then the job's progress with a cancel, and its report as a download.
 */
export function ContactImport({ token, copy, notify, onUnauthorized, onFinished }: Props) {
  const id = useId();
  const [upload, setUpload] = useState<Upload | null>(null);
  const [pasted, setPasted] = useState('');
  const [header, setHeader] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Partial<Record<ImportField, string>>>({});
  const [mode, setMode] = useState<ImportMode>('consented');
  const [source, setSource] = useState('');
  const [consentedOn, setConsentedOn] = useState('');
  const [defaultLang, setDefaultLang] = useState<Lang>('en');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<ImportStatus | null>(null);
  const progressHeading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  /**
   * Reads the list's header line and maps each field to the column that usually holds it; while the header
   * stays the same (a paste being typed on), the admin's own choices stay.
   */
  const readHeader = (text: string) => {
    const cells = headerOf(text).filter(Boolean);
    if (cells.join('\n') === header.join('\n')) return;
    setHeader(cells);
    setMapping(
      Object.fromEntries(
        IMPORT_FIELDS.map((field) => [field, cells[guessColumn(cells, field)] ?? '']),
      ) as Record<ImportField, string>,
    );
  };

  const chooseFile = async (file: File | undefined) => {
    setError('');
    if (!file) return setUpload(null);
    if (file.size > MAX_BYTES) return setError(copy.error_payload_too_large);
    // The header is all the admin needs to read; the server reads the whole file itself.
    const head = new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer());
    if (isBinary(head)) return setError(copy.error_not_csv);
    setPasted('');
    setUpload({ kind: 'file', blob: file, name: file.name });
    readHeader(decodeCsvText(head));
  };

  const paste = (text: string) => {
    setPasted(text);
    setError('');
    if (!text.trim()) return setUpload(null);
    // Whichever was given last is imported: a pasted list replaces a chosen file.
    if (fileInput.current) fileInput.current.value = '';
    const csv = pastedCsv(text);
    setUpload({ kind: 'paste', blob: new Blob([csv], { type: 'text/csv' }) });
    readHeader(csv);
  };

  // A running import is asked for its progress until it ends.
  const running = job?.state === 'running';
  const jobId = job?.id;
  useEffect(() => {
    if (!running || jobId === undefined) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      fetchImport(token, jobId, controller.signal).then(setJob, (failure: unknown) => {
        if (isAuthError(failure)) onUnauthorized();
        // A failed poll is tried again at the next tick: nothing is lost by waiting.
        else setJob((j) => (j ? { ...j } : j));
      });
    }, POLL_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [token, running, jobId, job, onUnauthorized]);

  // Once an import starts, focus moves to its progress, which replaced the form.
  useEffect(() => {
    if (jobId !== undefined) progressHeading.current?.focus();
  }, [jobId]);

  // The end of an import is announced once, and the list refreshed.
  const ended = job !== null && !running;
  useEffect(() => {
    if (!ended || !job) return;
    notify(job.state === 'done' ? fill(copy.finished, { added: job.added }) : copy.cancelled);
    onFinished();
    // Only the change of state matters here, not each poll's new object.
  }, [ended, jobId]);

  const needsDate = mode === 'consented' && !mapping.consentDate;

  const start = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!upload) return setError(copy.need_list);
    if (!mapping.email) return setError(copy.error_no_email_column);
    if (!source.trim()) return setError(copy.need_source);
    if (needsDate && !consentedOn) return setError(copy.error_no_consent_date);
    setBusy(true);
    setError('');
    try {
      const started = await startImport(token, upload.blob, {
        mode,
        source: source.trim(),
        mapping,
        defaultLang,
        consentedOn: mode === 'consented' ? consentedOn : '',
      });
      setJob(await fetchImport(token, started));
    } catch (failure) {
      if (isAuthError(failure)) return onUnauthorized();
      const code = failure instanceof ApiError ? failure.code : undefined;
      const known = KNOWN_ERRORS.find((k) => k === code);
      setError(known ? copy[`error_${known}`] : copy.error_generic);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!job) return;
    try {
      setJob(await cancelImport(token, job.id));
    } catch (failure) {
      if (isAuthError(failure)) return onUnauthorized();
      // It finished meanwhile: show it as it is.
      setJob(await fetchImport(token, job.id).catch(() => job));
    }
  };

  const report = async () => {
    if (!job) return;
    try {
      downloadCsv(await fetchImportReport(token, job.id), `korvel-import-${job.id}-report.csv`);
    } catch (failure) {
      if (isAuthError(failure)) return onUnauthorized();
      notify(copy.report_failed, 'error');
    }
  };

  const again = () => {
    setJob(null);
    setUpload(null);
    setPasted('');
    setHeader([]);
  };

  if (job) {
    const rejected = job.rejected.length;
    return (
      <section className="admin-import" aria-labelledby={`${id}-progress`}>
        <h3 id={`${id}-progress`} ref={progressHeading} tabIndex={-1} className="admin-import__title">
          {copy[`state_${job.state}`]}
        </h3>
        <label htmlFor={`${id}-bar`} className="admin-label">
          {fill(copy.progress, { processed: job.processed, total: job.total })}
        </label>
        <progress
          id={`${id}-bar`}
          className="admin-progress"
          max={Math.max(job.total, 1)}
          value={job.processed}
        />
        <dl className="admin-campaign__counts" aria-live="polite">
          {(['added', 'updated', 'skipped'] as const).map((key) => (
            <div key={key} className="admin-campaign__count">
              <dt>{copy[key]}</dt>
              <dd>{job[key]}</dd>
            </div>
          ))}
          <div className="admin-campaign__count admin-campaign__count--failed">
            <dt>{copy.rejected}</dt>
            <dd>{rejected}</dd>
          </div>
        </dl>
        {rejected > 0 && (
          <>
            <h4 className="admin-campaign__subheading">{copy.rejected_title}</h4>
            <ul className="admin-import__rejected">
              {job.rejected.slice(0, SHOWN_REJECTIONS).map((row) => (
                <li key={row.line}>{fill(copy.rejected_line, { line: row.line, reason: row.reason })}</li>
              ))}
            </ul>
            {rejected > SHOWN_REJECTIONS && (
              <p className="admin-hint">{fill(copy.rejected_more, { count: rejected - SHOWN_REJECTIONS })}</p>
            )}
          </>
        )}
        <div className="admin-campaign__actions">
          {running ? (
            <button type="button" className="admin-button admin-button--danger" onClick={cancel}>
              {copy.cancel}
            </button>
          ) : (
            <>
              <button type="button" className="admin-button admin-button--primary" onClick={report}>
                {copy.report}
              </button>
              <button type="button" className="admin-button" onClick={again}>
                {copy.again}
              </button>
            </>
          )}
        </div>
      </section>
    );
  }

  return (
    <form className="admin-import" onSubmit={start} noValidate aria-label={copy.title}>
      <p className="admin-hint">{copy.intro}</p>
      <div className="admin-import__sources">
        <div className="admin-field">
          <label htmlFor={`${id}-file`} className="admin-label">
            {copy.file}
          </label>
          <input
            ref={fileInput}
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            className="admin-input"
            onChange={(event) => void chooseFile(event.target.files?.[0])}
          />
        </div>
        <div className="admin-field">
          <label htmlFor={`${id}-paste`} className="admin-label">
            {copy.paste}
          </label>
          <p id={`${id}-paste-hint`} className="admin-hint">
            {copy.paste_hint}
          </p>
          <textarea
            id={`${id}-paste`}
            className="admin-input admin-textarea"
            value={pasted}
            spellCheck={false}
            aria-describedby={`${id}-paste-hint`}
            onChange={(event) => paste(event.target.value)}
          />
        </div>
      </div>

      {upload && header.length > 0 && (
        <fieldset className="admin-import__columns">
          <legend className="admin-label">{copy.columns}</legend>
          <p className="admin-hint">{copy.columns_hint}</p>
          {IMPORT_FIELDS.map((field) => (
            <div key={field} className="admin-field">
              <label htmlFor={`${id}-map-${field}`} className="admin-label">
                {copy[`field_${field}`]}
              </label>
              <select
                id={`${id}-map-${field}`}
                className="admin-select"
                value={mapping[field] ?? ''}
                onChange={(event) => setMapping((m) => ({ ...m, [field]: event.target.value }))}
              >
                <option value="">{copy.not_in_file}</option>
                {header.map((column) => (
                  <option key={column} value={column}>
                    {column}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      )}

      <fieldset className="admin-choice">
        <legend className="admin-label">{copy.mode}</legend>
        {(['consented', 'confirm'] as const).map((value) => (
          <label key={value} className="admin-choice__option">
            <input
              type="radio"
              name={`${id}-mode`}
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
            />
            <span>
              <strong>{copy[`mode_${value}`]}</strong>
              <span className="admin-choice__hint">{copy[`mode_${value}_hint`]}</span>
            </span>
          </label>
        ))}
      </fieldset>

      <div className="admin-import__details">
        <div className="admin-field">
          <label htmlFor={`${id}-source`} className="admin-label">
            {copy.source}
          </label>
          <p id={`${id}-source-hint`} className="admin-hint">
            {copy.source_hint}
          </p>
          <input
            id={`${id}-source`}
            className="admin-input"
            value={source}
            maxLength={300}
            required
            aria-describedby={`${id}-source-hint`}
            onChange={(event) => setSource(event.target.value)}
          />
        </div>
        {needsDate && (
          <div className="admin-field">
            <label htmlFor={`${id}-date`} className="admin-label">
              {copy.date}
            </label>
            <input
              id={`${id}-date`}
              type="date"
              className="admin-input"
              value={consentedOn}
              required
              onChange={(event) => setConsentedOn(event.target.value)}
            />
          </div>
        )}
        <div className="admin-field">
          <label htmlFor={`${id}-lang`} className="admin-label">
            {copy.default_lang}
          </label>
          <select
            id={`${id}-lang`}
            className="admin-select"
            value={defaultLang}
            onChange={(event) => setDefaultLang(event.target.value as Lang)}
          >
            <option value="en">{copy.lang_en}</option>
            <option value="de">{copy.lang_de}</option>
          </select>
        </div>
      </div>

      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
      <div className="admin-campaign__actions">
        <button type="submit" className="admin-button admin-button--primary" aria-disabled={busy}>
          {busy ? copy.starting : copy.start}
        </button>
      </div>
    </form>
  );
}
