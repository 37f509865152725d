// @vitest-environment jsdom
/**
 * A picture dropped into the text of a piece (issue 37, item 3), through MDXEditor's own drop handling in the
 * Content tab's BodyEditor: the dialog asks for the alt text and refuses to go on without it, stores the picture
 * only on confirm, and the text gets `![alt](src "caption")`; cancelled, nothing is stored and nothing goes in;
 * a refused upload keeps the dialog open with the reason. tests/unit/figure-captions.test.ts shows how the site
 * prints that Markdown. The toolbar's picture button asks in the same dialog, for the file as well.
 */
import type { MDXEditorMethods } from '@mdxeditor/editor';
import { act, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { BodyEditor } from '../../src/components/islands/admin/content/BodyEditor.tsx';
import type { ContentCopy } from '../../src/components/islands/admin/copy.ts';
import en from '../../src/i18n/locales/en/admin.json';

vi.mock('@mdxeditor/editor/style.css?url', () => ({ default: '/editor.css' }));
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const copy = en.content as unknown as ContentCopy;
const ALT = 'Tablet press with the feed frame opened for cleaning';
const CAPTION = 'The press after its weekly clean';

beforeAll(() => {
  // jsdom has the <dialog> element without its modal methods; Chromium runs the real ones in tests/e2e/content.spec.ts.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

let mounted: { root: Root; container: HTMLElement } | undefined;
afterEach(() => {
  if (!mounted) return;
  act(() => mounted!.root.unmount());
  mounted.container.remove();
  mounted = undefined;
});

/** The editor with one paragraph, storing pictures with `upload`. */
async function open(upload: (file: File) => Promise<string>) {
  const ref = createRef<MDXEditorMethods>();
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted = { root, container };
  await act(async () => {
    root.render(
      <BodyEditor
        ref={ref}
        markdown={'The press is cleaned every week.\n'}
        copy={copy}
        label="Text"
        onChange={() => {}}
        onError={(message) => {
          throw new Error(message);
        }}
        uploadImage={upload}
        previewImage={async (src) => src}
      />,
    );
  });
  return ref;
}

/** Drops picture files onto the editing area, as a browser reports them. */
async function drop(...files: File[]) {
  const area = document.querySelector<HTMLElement>('[contenteditable="true"]')!;
  const event = new Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', {
    value: { items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })) },
  });
  await act(async () => {
    area.dispatchEvent(event);
  });
  return event;
}

const dialog = () => document.querySelector<HTMLDialogElement>('dialog.admin-picture')!;
const field = (label: string) => {
  const id = [...dialog().querySelectorAll('label')].find((l) => l.textContent === label)!.htmlFor;
  return document.getElementById(id) as HTMLInputElement;
};
const type = (input: HTMLInputElement, value: string) => {
  // React tracks the value it last saw; the native setter makes the change an input event React reports.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};
const press = async (name: string) => {
  const button = [...dialog().querySelectorAll('button')].find((b) => b.textContent === name)!;
  await act(async () => {
    button.click();
  });
};
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

const photo = (name = 'Tablet press.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

describe('a picture dropped into the text', () => {
  test('asks for its alt text first, refuses an empty one, and goes in with the alt text and caption', async () => {
    const upload = vi.fn<(file: File) => Promise<string>>(async () => './images/tablet-press-0a1b2c3d4e.png');
    const editor = await open(upload);
    const event = await drop(photo());
    expect(event.defaultPrevented).toBe(true);

    expect(dialog().open).toBe(true);
    expect(dialog().getAttribute('aria-labelledby')).toBeTruthy();
    expect(dialog().textContent).toContain('Tablet press.png');
    expect(document.activeElement).toBe(field(copy.field_alt));

    await press(copy.picture_add);
    expect(field(copy.field_alt).getAttribute('aria-invalid')).toBe('true');
    expect(dialog().textContent).toContain(copy.picture_alt_missing);
    expect(upload).not.toHaveBeenCalled();
    expect(dialog().open).toBe(true);

    act(() => {
      type(field(copy.field_alt), ALT);
      type(field(copy.field_caption), CAPTION);
    });
    await press(copy.picture_add);
    await settle();

    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0]![0]).toBeInstanceOf(File);
    expect(dialog().open).toBe(false);
    expect(editor.current!.getMarkdown()).toContain(
      `![${ALT}](./images/tablet-press-0a1b2c3d4e.png "${CAPTION}")`,
    );
  });

  test('a caption may stay empty: the picture goes in with its alt text alone', async () => {
    const editor = await open(async () => './images/tablet-press-0a1b2c3d4e.png');
    await drop(photo());
    act(() => type(field(copy.field_alt), ALT));
    await press(copy.picture_add);
    await settle();
    expect(editor.current!.getMarkdown()).toContain(`![${ALT}](./images/tablet-press-0a1b2c3d4e.png)`);
  });

  test('cancelled, it is neither stored nor put into the text', async () => {
    const upload = vi.fn(async () => './images/tablet-press-0a1b2c3d4e.png');
    const editor = await open(upload);
    const before = editor.current!.getMarkdown();
    await drop(photo());
    act(() => type(field(copy.field_alt), ALT));
    await press(copy.picture_cancel);
    await settle();
    expect(upload).not.toHaveBeenCalled();
    expect(dialog().open).toBe(false);
    expect(editor.current!.getMarkdown()).toBe(before);
  });

  test('a picture the server refuses keeps the dialog open with the reason, and nothing goes in', async () => {
    const editor = await open(async () => {
      throw new Error(copy.image_refused);
    });
    await drop(photo());
    act(() => type(field(copy.field_alt), ALT));
    await press(copy.picture_add);
    await settle();
    expect(dialog().open).toBe(true);
    expect(dialog().querySelector('[role="alert"]')?.textContent).toBe(copy.image_refused);
    await press(copy.picture_cancel);
    expect(editor.current!.getMarkdown()).not.toContain('![');
  });

  test('pasted, it is asked about the same way', async () => {
    const upload = vi.fn(async () => './images/tablet-press-0a1b2c3d4e.png');
    const editor = await open(upload);
    const area = document.querySelector<HTMLElement>('[contenteditable="true"]')!;
    const event = new Event('paste', { bubbles: true, cancelable: true });
    const file = photo();
    Object.defineProperty(event, 'clipboardData', {
      value: { items: [{ kind: 'file', type: file.type, getAsFile: () => file }] },
    });
    await act(async () => {
      area.dispatchEvent(event);
    });
    expect(dialog().open).toBe(true);
    expect(upload).not.toHaveBeenCalled();
    act(() => {
      type(field(copy.field_alt), ALT);
      type(field(copy.field_caption), CAPTION);
    });
    await press(copy.picture_add);
    await settle();
    expect(editor.current!.getMarkdown()).toContain(
      `![${ALT}](./images/tablet-press-0a1b2c3d4e.png "${CAPTION}")`,
    );
  });

  test('two pictures dropped at once are described one after the other, each with a form of its own', async () => {
    const upload = vi.fn(async (file: File) => `./images/${file.name.replace(/\W+/g, '-')}`);
    const editor = await open(upload);
    await drop(photo('Press one.png'), photo('Press two.png'));
    expect(dialog().textContent).toContain('Press one.png');
    act(() => type(field(copy.field_alt), `${ALT}, first view`));
    await press(copy.picture_add);
    await settle();
    expect(dialog().open).toBe(true);
    expect(dialog().textContent).toContain('Press two.png');
    expect(field(copy.field_alt).value).toBe('');
    expect(document.activeElement).toBe(field(copy.field_alt));
    act(() => type(field(copy.field_alt), `${ALT}, second view`));
    await press(copy.picture_add);
    await settle();
    expect(dialog().open).toBe(false);
    const markdown = editor.current!.getMarkdown();
    expect(markdown).toContain(`![${ALT}, first view](./images/Press-one-png)`);
    expect(markdown).toContain(`![${ALT}, second view](./images/Press-two-png)`);
  });
});

describe('the toolbar’s picture button', () => {
  test('asks for the file and its alt text, and stores the picture only when both are given', async () => {
    const upload = vi.fn(async () => './images/tablet-press-0a1b2c3d4e.png');
    const editor = await open(upload);
    await act(async () => {
      document.querySelector<HTMLButtonElement>('button[aria-label="Insert image"]')!.click();
    });
    expect(dialog().open).toBe(true);
    expect(document.activeElement).toBe(field(copy.picture_file));

    act(() => type(field(copy.field_alt), ALT));
    await press(copy.picture_add);
    expect(dialog().textContent).toContain(copy.picture_file_missing);
    expect(upload).not.toHaveBeenCalled();

    // jsdom cannot pick a file; the input is given one as the browser's file chooser would.
    Object.defineProperty(field(copy.picture_file), 'files', {
      value: { length: 1, item: () => photo() },
    });
    await press(copy.picture_add);
    await settle();
    expect(upload).toHaveBeenCalledTimes(1);
    expect(dialog().open).toBe(false);
    expect(editor.current!.getMarkdown()).toContain(`![${ALT}](./images/tablet-press-0a1b2c3d4e.png)`);
  });
});
