/**
 * One article or news item: its front matter as form fields, its text in the rich-text editor (or as MDX in
 * the source view), and Save, Check, Submit for review, Publish and Translate. The server commits every save
 * to the piece's branch; a save from an older version comes back 409 and the writer's text stays on screen.
 */
import type { MDXEditorMethods } from '@mdxeditor/editor';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Role } from '../auth-api.ts';
import { isAbort, isApiError, isAuthError, type ApiError } from '../api.ts';
import type { ContentCopy } from '../copy.ts';
import { fill } from '../format.ts';
import type { ToastTone } from '../Toasts.tsx';
import { slugify } from '../../../../lib/slug.ts';
import { BodyEditor } from './BodyEditor.tsx';
import {
  fetchPiece,
  fetchPreview,
  fetchImage,
  isLintRefusal,
  lintPiece,
  publishPiece,
  savePiece,
  submitPiece,
  translatePiece,
  uploadImage,
  type AuthorOption,
  type Finding,
  type Frontmatter,
  type Opening,
  type Piece,
  type Preview,
  type PieceRef,
} from './content-api.ts';
import { FrontmatterFields } from './FrontmatterFields.tsx';

interface Props {
  opening: Opening;
  token: string;
  authors: readonly AuthorOption[];
  mayPublish: boolean;
  role: Role;
  copy: ContentCopy;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  onOpen: (opening: Opening) => void;
  onClose: () => void;
}

type Busy = 'save' | 'check' | 'submit' | 'publish' | 'translate' | 'image' | null;

/** A new piece's id from its title, as `npm run new:article` makes it. */
const slugOf = (title: string) => slugify(title);

const today = () => new Date().toISOString().slice(0, 10);

/** The body as the file keeps it: after a blank line, ending in one newline. */
const asFileBody = (markdown: string) => `\n${markdown.trim()}\n`;

/** How often the editor asks again while Netlify builds the draft's preview. */
const PREVIEW_POLL_MS = 15_000;

export function PieceEditor(props: Props) {
  const { opening, token, authors, mayPublish, copy, notify, onUnauthorized, onOpen, onClose } = props;
  const id = useId();
  const editor = useRef<MDXEditorMethods>(null);
  const [piece, setPiece] = useState<Piece | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [pieceId, setPieceId] = useState(opening.ref.id);
  const [data, setData] = useState<Frontmatter>({});
  const [body, setBody] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [conflict, setConflict] = useState(false);
  const [editorProblem, setEditorProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  /** The markdown the editor gave for the text as loaded: an unchanged text is saved as the file had it. */
  const loadedExport = useRef<string | null>(null);
  const ref: PieceRef = { ...opening.ref, id: pieceId };
  const isNew = opening.isNew && piece === null;

  useEffect(() => {
    if (opening.isNew) {
      setData({
        title: '',
        summary: '',
        date: today(),
        author: '',
        discipline: '',
        divisions: [],
        tags: [],
        images: [],
        references: [],
      });
      setBody('\n');
      return;
    }
    const controller = new AbortController();
    fetchPiece(token, opening.ref, controller.signal).then(
      (loaded) => {
        setPiece(loaded);
        setData(loaded.frontmatter);
        setBody(loaded.body);
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setLoadFailed(true);
      },
    );
    return () => controller.abort();
  }, [token, opening, onUnauthorized]);

  // The draft's preview after each load, save and submission; asked again while Netlify builds it.
  const version = piece?.version;
  const pieceStatus = piece?.status;
  useEffect(() => {
    if (version === undefined) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () =>
      fetchPreview(token, { ...opening.ref, id: pieceId }, controller.signal).then(
        (found) => {
          setPreview(found);
          if (found?.state === 'building' || found?.state === 'waiting')
            timer = setTimeout(ask, PREVIEW_POLL_MS);
        },
        (error: unknown) => {
          if (!isAbort(error)) setPreview(null);
        },
      );
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [token, opening, pieceId, version, pieceStatus]);

  const failed = useCallback(
    (error: unknown, fallback: string) => {
      if (isAuthError(error)) return onUnauthorized();
      if (isApiError(error, 409)) {
        setConflict(true);
        return notify(copy.conflict, 'error');
      }
      if (isApiError(error, 400) && Object.keys((error as ApiError).fields).length > 0) {
        setErrors({ ...(error as ApiError).fields });
        return notify(copy.fix_fields, 'error');
      }
      notify(fallback, 'error');
    },
    [copy, notify, onUnauthorized],
  );

  /** The text to save: the file's own when the writer has not changed it, else what the editor makes of it. */
  const currentBody = () => {
    const exported = editor.current?.getMarkdown();
    if (exported === undefined || body === null) return body ?? '\n';
    if (loadedExport.current === null || exported === loadedExport.current) return body;
    return asFileBody(exported);
  };

  const run = async (what: Exclude<Busy, null>, work: () => Promise<void>) => {
    if (busy) return;
    setBusy(what);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  /** Saves the form and the text; false (with the reason shown) when the server or the schema refused. */
  const saveNow = async (): Promise<boolean> => {
    // The front matter is checked by the server against the collection's schema; only the new address here.
    const local: Record<string, string> = {};
    if (isNew && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(pieceId)) local.id = copy.id_invalid;
    setErrors(local);
    if (Object.keys(local).length > 0) {
      notify(copy.fix_fields, 'error');
      return false;
    }
    const text = currentBody();
    try {
      const saved = await savePiece(token, ref, {
        frontmatter: data,
        body: text,
        ...(piece && { version: piece.version }),
      });
      setPiece((p) => ({
        ...(p ?? { review: null }),
        frontmatter: data,
        body: text,
        version: saved.version,
        branch: saved.branch,
        status:
          p?.status === 'review'
            ? 'review'
            : p?.status === 'published' && saved.version === p.version
              ? 'published'
              : 'draft',
      }));
      setBody(text);
      loadedExport.current = editor.current?.getMarkdown() ?? null;
      setConflict(false);
      return true;
    } catch (error) {
      failed(error, copy.save_failed);
      return false;
    }
  };

  const save = () =>
    run('save', async () => {
      if (await saveNow()) notify(copy.saved);
    });

  const check = () =>
    run('check', async () => {
      if (!(await saveNow())) return;
      try {
        const found = await lintPiece(token, ref);
        setFindings(found);
        const errorCount = found.filter((f) => f.severity === 'error').length;
        notify(
          errorCount === 0 ? copy.check_clean : fill(copy.check_errors, { count: errorCount }),
          errorCount ? 'error' : undefined,
        );
      } catch (error) {
        failed(error, copy.check_failed);
      }
    });

  const submit = () =>
    run('submit', async () => {
      if (!(await saveNow())) return;
      try {
        await submitPiece(token, ref);
        setPiece((p) => p && { ...p, status: 'review' });
        notify(copy.submitted);
      } catch (error) {
        if (isLintRefusal(error)) {
          setFindings(await lintPiece(token, ref).catch(() => []));
          return notify(copy.submit_refused, 'error');
        }
        if (isApiError(error, 409, 'nothing_to_submit')) return notify(copy.nothing_to_submit, 'error');
        failed(error, copy.submit_failed);
      }
    });

  const publish = () =>
    run('publish', async () => {
      try {
        await publishPiece(token, ref);
        notify(copy.published);
        onClose();
      } catch (error) {
        if (isLintRefusal(error)) {
          setFindings(await lintPiece(token, ref).catch(() => []));
          return notify(copy.submit_refused, 'error');
        }
        if (isApiError(error, 409, 'not_submitted')) return notify(copy.not_submitted, 'error');
        failed(error, copy.publish_failed);
      }
    });

  const translate = () =>
    run('translate', async () => {
      try {
        await translatePiece(token, ref);
        notify(copy.translated);
        onOpen({ ref: { ...ref, lang: 'de' }, isNew: false });
      } catch (error) {
        failed(error, copy.translate_failed);
      }
    });

  /** Whether the piece has an id its pictures can be stored under (a new one: once its address is valid). */
  const idReady = () => {
    if (!isNew || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(pieceId)) return true;
    setErrors((e) => ({ ...e, id: copy.id_invalid }));
    notify(copy.fix_fields, 'error');
    return false;
  };

  /** A picture for the slider: stored on the server, then added to the images with an empty alt text to write. */
  const addSliderImage = (file: File) =>
    run('image', async () => {
      if (!idReady()) return;
      try {
        const stored = await uploadImage(token, ref, file);
        const images = Array.isArray(data.images) ? data.images : [];
        setData((d) => ({ ...d, images: [...images, { src: stored.src, alt: '' }] }));
        notify(fill(copy.image_added, { name: file.name }));
      } catch (error) {
        if (isApiError(error, 415)) return notify(copy.image_refused, 'error');
        if (isApiError(error, 413)) return notify(copy.image_too_large, 'error');
        failed(error, copy.image_failed);
      }
    });

  if (loadFailed)
    return (
      <div className="admin-empty" role="status">
        <p>{copy.load_failed}</p>
        <button type="button" className="admin-button" onClick={onClose}>
          {copy.back}
        </button>
      </div>
    );
  if (body === null)
    return (
      <p className="admin-status" role="status">
        {copy.loading}
      </p>
    );

  const lines = body.split('\n');
  const status = piece?.status ?? 'draft';
  const canPublish = mayPublish && status === 'review';
  return (
    <div className="admin-content__editor">
      <div className="admin-campaigns__head">
        <div>
          <button type="button" className="admin-link-button" onClick={onClose}>
            {copy.back}
          </button>
          <h2 className="admin-campaigns__title" lang={ref.lang}>
            {String(data.title || (ref.collection === 'blog' ? copy.new_article : copy.new_news))}
          </h2>
          <p className="admin-campaigns__intro">
            {fill(copy.editing_intro, {
              kind: ref.collection === 'blog' ? copy.kind_blog : copy.kind_news,
              lang: ref.lang === 'en' ? copy.lang_en : copy.lang_de,
              status: copy[`status_${status}`],
            })}
          </p>
        </div>
      </div>

      {conflict && (
        <div className="admin-error" role="alert">
          <p>{copy.conflict}</p>
        </div>
      )}

      {isNew && (
        <div className="admin-field">
          <label htmlFor={`${id}-id`} className="admin-label">
            {copy.field_id}
          </label>
          <p id={`${id}-id-hint`} className="admin-hint">
            {copy.field_id_hint}
          </p>
          <input
            id={`${id}-id`}
            className="admin-input"
            value={pieceId}
            aria-describedby={`${id}-id-hint${errors.id ? ` ${id}-id-error` : ''}`}
            {...(errors.id && { 'aria-invalid': true })}
            onChange={(event) => setPieceId(event.target.value)}
          />
          {errors.id && (
            <p id={`${id}-id-error`} className="admin-field-error">
              {errors.id}
            </p>
          )}
        </div>
      )}

      <div className="admin-content__layout" lang={ref.lang}>
        <FrontmatterFields
          data={data}
          errors={errors}
          authors={authors}
          copy={copy}
          onChange={(key, value) => {
            setData((d) => {
              const next = { ...d, [key]: value };
              if (value === undefined) delete next[key];
              return next;
            });
            if (key === 'title' && isNew && (pieceId === '' || pieceId === slugOf(String(data.title ?? ''))))
              setPieceId(slugOf(String(value ?? '')));
          }}
          imageTools={
            <div className="admin-field">
              <label htmlFor={`${id}-picture`} className="admin-label">
                {copy.add_image}
              </label>
              <p id={`${id}-picture-hint`} className="admin-hint">
                {copy.add_image_hint}
              </p>
              <input
                id={`${id}-picture`}
                type="file"
                accept="image/jpeg,image/png,image/webp,image/avif"
                aria-describedby={`${id}-picture-hint`}
                disabled={busy === 'image'}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void addSliderImage(file);
                }}
              />
            </div>
          }
        />
        <section className="admin-content__body" aria-labelledby={`${id}-body`}>
          <h3 id={`${id}-body`} className="admin-label">
            {copy.field_body}
          </h3>
          <p className="admin-hint">{copy.field_body_hint}</p>
          {editorProblem && (
            <p className="admin-field-error" role="alert">
              {fill(copy.editor_problem, { problem: editorProblem })}
            </p>
          )}
          {errors.body && (
            <p className="admin-field-error" role="alert">
              {errors.body}
            </p>
          )}
          <BodyEditor
            ref={(methods) => {
              editor.current = methods;
              if (methods && loadedExport.current === null) loadedExport.current = methods.getMarkdown();
            }}
            markdown={body}
            copy={copy}
            label={copy.field_body}
            onChange={() => undefined}
            onError={setEditorProblem}
            uploadImage={async (file) => {
              if (!idReady()) throw new Error(copy.id_invalid);
              try {
                return (await uploadImage(token, ref, file)).src;
              } catch (error) {
                // The picture dialog shows what went wrong and stays open; the rest is the tab's own handling.
                if (isApiError(error, 415)) throw new Error(copy.image_refused, { cause: error });
                if (isApiError(error, 413)) throw new Error(copy.image_too_large, { cause: error });
                failed(error, copy.image_failed);
                throw new Error(copy.image_failed, { cause: error });
              }
            }}
            previewImage={(src) => fetchImage(token, ref, src)}
          />
        </section>
      </div>

      <div className="admin-campaign__actions admin-content__actions">
        <button
          type="button"
          className="admin-button admin-button--primary"
          aria-disabled={busy !== null}
          onClick={save}
        >
          {busy === 'save' ? copy.saving : copy.save}
        </button>
        <button type="button" className="admin-button" aria-disabled={busy !== null} onClick={check}>
          {busy === 'check' ? copy.checking : copy.check}
        </button>
        <button type="button" className="admin-button" aria-disabled={busy !== null} onClick={submit}>
          {copy.submit}
        </button>
        {canPublish && (
          <button
            type="button"
            className="admin-button admin-button--primary"
            aria-disabled={busy !== null}
            onClick={publish}
          >
            {copy.publish}
          </button>
        )}
        {ref.lang === 'en' && !isNew && (
          <button type="button" className="admin-button" aria-disabled={busy !== null} onClick={translate}>
            {copy.translate}
          </button>
        )}
      </div>
      {preview && (
        <p className="admin-hint admin-content__preview" role="status">
          <a href={preview.url} target="_blank" rel="noopener">
            {copy.preview_link}
          </a>{' '}
          <span className={`admin-badge admin-content__preview-state--${preview.state}`}>
            {copy[`preview_${preview.state}`]}
          </span>
        </p>
      )}
      {piece?.review?.url && (
        <p className="admin-hint">
          <a href={piece.review.url}>{copy.review_link}</a>
        </p>
      )}

      {findings && (
        <section className="admin-content__findings" aria-labelledby={`${id}-findings`}>
          <h3 id={`${id}-findings`} className="admin-label">
            {copy.findings}
          </h3>
          {findings.length === 0 ? (
            <p>{copy.check_clean}</p>
          ) : (
            <ul>
              {findings.map((finding, index) => (
                <li
                  key={index}
                  className={`admin-content__finding admin-content__finding--${finding.severity}`}
                >
                  <p>
                    <strong>
                      {finding.bodyLine
                        ? fill(copy.finding_body_line, { line: finding.bodyLine })
                        : finding.field
                          ? fill(copy.finding_field, { field: finding.field })
                          : copy.frontmatter}
                    </strong>{' '}
                    <span className="admin-badge">
                      {finding.severity === 'error' ? copy.severity_error : copy.severity_notice}
                    </span>
                  </p>
                  {finding.bodyLine && lines[finding.bodyLine - 1]?.trim() && (
                    <blockquote className="admin-content__quote" lang={ref.lang}>
                      {lines[finding.bodyLine - 1]}
                    </blockquote>
                  )}
                  <p>{finding.message}</p>
                  <p className="admin-hint">{finding.fix}</p>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
