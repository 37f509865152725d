/**
 * Pictures in the text of a piece get their alt text and caption before anything is stored (issue 37, item 3).
 * MDXEditor's image plugin keeps its drag and drop, paste, toolbar button and picture toolbar; this module
 * replaces its dialog (`ImageDialog`) with the admin's own and gives it an `imageUploadHandler` that asks first:
 * a dropped or pasted picture opens the dialog, is stored only when the writer confirms, and goes into the text
 * as `![alt](src "caption")`, which the site prints as a figure with its caption (src/lib/figure-plugin.ts).
 * Cancelled, nothing is stored and nothing stays in the text. The library inserts an uploaded picture itself
 * with an empty alt text, so `describedPictures` fills in what the writer wrote as the picture goes in.
 */
import {
  closeImageDialog$,
  createActiveEditorSubscription$,
  imageDialogState$,
  ImageNode,
  insertImage$,
  realmPlugin,
  saveImage$,
  useCellValue,
  usePublisher,
} from '@mdxeditor/editor';
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type SubmitEvent,
} from 'react';
import { createPortal } from 'react-dom';
import { fill } from '../format.ts';
import type { ContentCopy } from '../copy.ts';
import { useModal } from '../modal.ts';
import { Field } from './FrontmatterFields.tsx';

/** What the writer says about a picture: the alt text and the caption ('' for none). */
interface Description {
  alt: string;
  caption: string;
}

/** The limits of the article schema's slider pictures (src/lib/article-schema.ts) and the content linter's alt-text rule. */
const ALT_MIN = 10;
const ALT_MAX = 160;
const CAPTION_MIN = 3;
const CAPTION_MAX = 200;

/** The field a description gets wrong, with the copy key of what to do, or null when it is complete. */
function describeProblem({
  alt,
  caption,
}: Description): { field: 'alt' | 'caption'; key: keyof ContentCopy } | null {
  if (alt.trim().length < ALT_MIN) return { field: 'alt', key: 'picture_alt_missing' };
  if (alt.trim().length > ALT_MAX) return { field: 'alt', key: 'picture_alt_long' };
  const length = caption.trim().length;
  if (length > 0 && (length < CAPTION_MIN || length > CAPTION_MAX))
    return { field: 'caption', key: 'picture_caption_length' };
  return null;
}

/** The src a cancelled picture answers the library with: the picture it inserts with it is taken out at once. */
const NOTHING = 'korvel:cancelled-picture';

interface Dropped {
  file: File;
  settle: (src: string) => void;
}

/**
 * The pictures dropped or pasted into the text that wait for their description, one dialog at a time, and the
 * descriptions of pictures just stored, until the library inserts them.
 */
export class PictureDesk {
  private waiting: Dropped[] = [];
  private described: Array<Description & { src: string }> = [];
  private readonly listeners = new Set<() => void>();
  /** Stores a picture and answers the path the text uses for it; rejects with a message to show. */
  upload: (file: File) => Promise<string>;

  constructor(upload: (file: File) => Promise<string>) {
    this.upload = upload;
  }

  /** The image plugin's `imageUploadHandler`: answers the stored picture's path once described, or nothing. */
  ask = (file: File): Promise<string> =>
    new Promise((settle) => {
      this.waiting = [...this.waiting, { file, settle }];
      this.emit();
    });

  /** The picture whose description is being asked for. */
  current = (): File | null => this.waiting[0]?.file ?? null;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Stores the current picture with its description; a failed upload rejects and leaves the dialog open. */
  async confirm(description: Description): Promise<void> {
    const dropped = this.waiting[0]!;
    const src = await this.upload(dropped.file);
    this.described.push({ src, ...description });
    this.finish(dropped, src);
  }

  /** The current picture is not wanted: nothing was stored, and nothing goes into the text. */
  cancel() {
    if (this.waiting[0]) this.finish(this.waiting[0], NOTHING);
  }

  /** The description given to the picture just stored at `src`, once. */
  take(src: string): Description | undefined {
    const found = this.described.find((entry) => entry.src === src);
    if (!found) return undefined;
    this.described = this.described.filter((entry) => entry !== found);
    return { alt: found.alt, caption: found.caption };
  }

  private finish(dropped: Dropped, src: string) {
    this.waiting = this.waiting.filter((entry) => entry !== dropped);
    this.emit();
    dropped.settle(src);
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Gives a dropped or pasted picture its alt text and caption (its Markdown title) in the same update that the
 * image plugin inserts it with an empty alt text, and takes a cancelled one out again before it is ever drawn
 * (a Lexical node transform, run on every new or changed picture). Other pictures are left as they are.
 */
export const describedPictures = realmPlugin<{ desk: PictureDesk }>({
  init(realm, params) {
    const desk = params!.desk;
    realm.pub(createActiveEditorSubscription$, (editor) =>
      editor.registerNodeTransform(ImageNode, (node) => {
        if (node.getSrc() === NOTHING) return node.remove();
        const description = desk.take(node.getSrc());
        if (!description) return;
        node.setAltText(description.alt.trim());
        node.setTitle(description.caption.trim());
      }),
    );
  },
});

/** The desk and the copy, from the body editor to the dialog it hands the image plugin. */
export const PictureContext = createContext<{ desk: PictureDesk; copy: ContentCopy } | null>(null);

/** A number for each dropped picture, so the form starts empty for the next one in the queue. */
const serials = new WeakMap<File, number>();
let lastSerial = 0;
const serialOf = (file: File) => {
  if (!serials.has(file)) serials.set(file, ++lastSerial);
  return serials.get(file)!;
};

/** A picture file as a data: URL (the admin's CSP allows data: images, not blob:). */
function usePreview(file: File | null) {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    setPreview(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return preview;
}

/**
 * The image plugin's dialog: a modal `<dialog>` with the alt text (required) and the caption, and the file to
 * add when it opened from the toolbar. It asks for a dropped or pasted picture, for the toolbar's picture
 * button, and for the settings of a picture already in the text. Focus starts in the first field and returns
 * where it was; Escape and Cancel close it without a change.
 */
export function PictureDialog() {
  const { desk, copy } = useContext(PictureContext)!;
  const state = useCellValue(imageDialogState$);
  const dropped = useSyncExternalStore(desk.subscribe, desk.current);
  const insertImage = usePublisher(insertImage$);
  const saveImage = usePublisher(saveImage$);
  const closeImageDialog = usePublisher(closeImageDialog$);
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const captionInput = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<{ file?: string; alt?: string; caption?: string; store?: string }>({});
  const [busy, setBusy] = useState(false);

  // A waiting drop comes first: the toolbar's dialog cannot be open while the text takes a drop.
  const mode = dropped ? 'drop' : state.type === 'new' ? 'new' : state.type === 'editing' ? 'edit' : null;
  const initial = state.type === 'editing' ? state.initialValues : null;
  const preview = usePreview(dropped);
  const first = mode === 'new' ? fileInput : altInput;
  const dialog = useModal(mode !== null, first, () => {
    setErrors({});
    setBusy(false);
  });

  // The next picture in the queue takes the dialog over: its form is new, so focus goes to its alt text.
  useEffect(() => {
    if (dropped) altInput.current?.focus();
  }, [dropped]);

  // While a picture is being stored the dialog waits for the answer: a cancel then would leave the file behind.
  const close = () => {
    if (busy) return;
    if (mode === 'drop') desk.cancel();
    else closeImageDialog();
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const description = { alt: String(form.get('alt') ?? ''), caption: String(form.get('caption') ?? '') };
    const file = mode === 'new' ? fileInput.current?.files?.item(0) : null;
    if (mode === 'new' && !file) {
      setErrors({ file: copy.picture_file_missing });
      fileInput.current?.focus();
      return;
    }
    const problem = describeProblem(description);
    if (problem) {
      setErrors({ [problem.field]: copy[problem.key] });
      (problem.field === 'alt' ? altInput : captionInput).current?.focus();
      return;
    }
    const described = { altText: description.alt.trim(), title: description.caption.trim() };
    if (mode === 'edit') {
      saveImage({ ...described, src: initial?.src ?? '' });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      if (mode === 'drop') await desk.confirm(description);
      else {
        insertImage({ ...described, src: await desk.upload(file!) });
        closeImageDialog();
      }
    } catch (error) {
      setErrors({ store: error instanceof Error ? error.message : copy.image_failed });
    } finally {
      setBusy(false);
    }
  };

  const title = mode === 'edit' ? copy.picture_edit_title : copy.picture_title;
  return createPortal(
    <dialog
      ref={dialog}
      className="admin-dialog admin-dialog--form admin-picture"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      {mode && (
        <form
          key={dropped ? serialOf(dropped) : mode}
          className="admin-dialog__body"
          noValidate
          onSubmit={submit}
        >
          <h2 id={`${id}-title`} className="admin-dialog__title">
            {title}
          </h2>
          <p id={`${id}-intro`}>
            {mode === 'drop' ? fill(copy.picture_intro_drop, { name: dropped!.name }) : copy.picture_intro}
          </p>
          {mode === 'drop' && preview && <img className="admin-picture__preview" src={preview} alt="" />}
          {errors.store && (
            <p className="admin-field-error admin-picture__error" role="alert">
              {errors.store}
            </p>
          )}
          {mode === 'new' && (
            <Field
              id={`${id}-file`}
              label={copy.picture_file}
              hint={copy.picture_file_hint}
              error={errors.file}
            >
              {(aria) => (
                <input
                  {...aria}
                  ref={fileInput}
                  name="file"
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/avif"
                  className="admin-input"
                  required
                />
              )}
            </Field>
          )}
          <Field id={`${id}-alt`} label={copy.field_alt} hint={copy.field_alt_hint} error={errors.alt}>
            {(aria) => (
              <input
                {...aria}
                ref={altInput}
                name="alt"
                className="admin-input"
                required
                maxLength={ALT_MAX}
                defaultValue={initial?.altText ?? ''}
                autoComplete="off"
              />
            )}
          </Field>
          <Field
            id={`${id}-caption`}
            label={copy.field_caption}
            hint={copy.field_caption_hint}
            error={errors.caption}
          >
            {(aria) => (
              <input
                {...aria}
                ref={captionInput}
                name="caption"
                className="admin-input"
                maxLength={CAPTION_MAX}
                defaultValue={initial?.title ?? ''}
                autoComplete="off"
              />
            )}
          </Field>
          <div className="admin-dialog__actions">
            <button type="button" className="admin-button" onClick={close}>
              {copy.picture_cancel}
            </button>
            <button type="submit" className="admin-button admin-button--primary" aria-disabled={busy}>
              {busy ? copy.picture_adding : mode === 'edit' ? copy.picture_save : copy.picture_add}
            </button>
          </div>
        </form>
      )}
    </dialog>,
    document.body,
  );
}
