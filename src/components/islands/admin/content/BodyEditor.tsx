/**
 * The body of a piece in MDXEditor (a kept library: docs/decisions.md, "Content tab"): headings, lists, links,
 * tables, pictures with their alt text and caption (PictureDialog.tsx), and the site's own MDX components as
 * blocks with their properties, beside a source view of the MDX itself. The site's components are those src/components/mdx/index.ts makes available to every entry.
 */
import {
  BlockTypeSelect,
  BoldItalicUnderlineToggles,
  Button,
  CreateLink,
  DiffSourceToggleWrapper,
  diffSourcePlugin,
  GenericJsxEditor,
  headingsPlugin,
  imagePlugin,
  InsertImage,
  insertJsx$,
  InsertTable,
  InsertThematicBreak,
  jsxPlugin,
  linkDialogPlugin,
  linkPlugin,
  listsPlugin,
  ListsToggle,
  markdownShortcutPlugin,
  MDXEditor,
  quotePlugin,
  Separator,
  tablePlugin,
  thematicBreakPlugin,
  toolbarPlugin,
  UndoRedo,
  usePublisher,
  type JsxComponentDescriptor,
  type JsxEditorProps,
  type MDXEditorMethods,
} from '@mdxeditor/editor';
import editorStyles from '@mdxeditor/editor/style.css?url';
import { createContext, forwardRef, useContext, useEffect, useId, useState } from 'react';
import { fill } from '../format.ts';
import type { ContentCopy } from '../copy.ts';
import { describedPictures, PictureContext, PictureDesk, PictureDialog } from './PictureDialog.tsx';

const EditorCopy = createContext<ContentCopy | null>(null);

/**
 * A component's properties as a disclosure with labelled fields: the library's own popover opens from an
 * icon without a name, which a screen reader cannot announce.
 */
function PropertyForm({
  title,
  properties,
  onChange,
}: {
  title: string;
  properties: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  const copy = useContext(EditorCopy)!;
  const id = useId();
  const [values, setValues] = useState(properties);
  return (
    <details className="admin-content__component">
      <summary>{fill(copy.component_edit, { name: title })}</summary>
      {Object.keys(values).map((name) => (
        <div key={name} className="admin-field">
          <label htmlFor={`${id}-${name}`} className="admin-label">
            {name}
          </label>
          <input
            id={`${id}-${name}`}
            className="admin-input"
            value={values[name] ?? ''}
            onChange={(event) => setValues((v) => ({ ...v, [name]: event.target.value }))}
          />
        </div>
      ))}
      <button type="button" className="admin-button admin-button--small" onClick={() => onChange(values)}>
        {copy.component_apply}
      </button>
    </details>
  );
}

const ComponentEditor = (props: JsxEditorProps) => (
  <GenericJsxEditor {...props} PropertyEditor={PropertyForm} />
);

/** The site's MDX components (src/components/mdx/index.ts), each offered as a block with its properties. */
const COMPONENTS: JsxComponentDescriptor[] = [
  {
    name: 'Email',
    kind: 'text',
    props: [{ name: 'to', type: 'string' }],
    hasChildren: false,
    Editor: ComponentEditor,
  },
  { name: 'Phone', kind: 'text', props: [], hasChildren: false, Editor: ComponentEditor },
  {
    name: 'ComparisonTable',
    kind: 'flow',
    props: [
      { name: 'caption', type: 'string' },
      { name: 'rows', type: 'expression' },
    ],
    hasChildren: false,
    Editor: ComponentEditor,
  },
];

/** The library's own strings, with `{{name}}` filled; the editing area is named after the field it is. */
const translate =
  (label: string) =>
  (key: string, defaultValue: string, values: Record<string, unknown> = {}) =>
    key === 'contentArea.editableMarkdown'
      ? label
      : defaultValue.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
          name in values ? String(values[name]) : whole,
        );

/** The stylesheet of the editor, loaded from this origin when the editor first opens (the admin's CSP allows 'self'). */
function useEditorStyles() {
  useEffect(() => {
    if (document.querySelector(`link[href="${editorStyles}"]`)) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = editorStyles;
    document.head.append(link);
  }, []);
}

function InsertComponents({ copy }: { copy: ContentCopy }) {
  const insert = usePublisher(insertJsx$);
  return (
    <>
      <Button title={copy.insert_email} onClick={() => insert({ name: 'Email', kind: 'text', props: {} })}>
        {copy.insert_email_short}
      </Button>
      <Button title={copy.insert_phone} onClick={() => insert({ name: 'Phone', kind: 'text', props: {} })}>
        {copy.insert_phone_short}
      </Button>
    </>
  );
}

interface Props {
  markdown: string;
  copy: ContentCopy;
  onChange: (markdown: string) => void;
  onError: (message: string) => void;
  /**
   * Stores a picture the writer described (dropped, pasted or chosen) and answers the path the body uses for
   * it; rejects with a message to show in the picture dialog.
   */
  uploadImage: (file: File) => Promise<string>;
  /** A picture's path in the body → an address the browser can show (a data: URL). */
  previewImage: (src: string) => Promise<string>;
  /** The label of the editing area, for screen readers. */
  label: string;
}

export const BodyEditor = forwardRef<MDXEditorMethods, Props>(function BodyEditor(
  { markdown, copy, onChange, onError, uploadImage, previewImage, label },
  ref,
) {
  useEditorStyles();
  const [desk] = useState(() => new PictureDesk(uploadImage));
  desk.upload = uploadImage;
  return (
    <EditorCopy.Provider value={copy}>
      <PictureContext.Provider value={{ desk, copy }}>
        <MDXEditor
          ref={ref}
          className="admin-content__mdx"
          contentEditableClassName="admin-content__prose"
          markdown={markdown}
          translation={translate(label)}
          onChange={(value, initialNormalize) => {
            if (!initialNormalize) onChange(value);
          }}
          onError={({ error }) => onError(error)}
          plugins={[
            headingsPlugin({ allowedHeadingLevels: [2, 3, 4] }),
            listsPlugin(),
            quotePlugin(),
            thematicBreakPlugin(),
            linkPlugin(),
            linkDialogPlugin(),
            tablePlugin(),
            // The library keeps drop, paste and its picture toolbar; every picture is described in the admin's dialog.
            imagePlugin({
              imageUploadHandler: desk.ask,
              imagePreviewHandler: previewImage,
              ImageDialog: PictureDialog,
            }),
            describedPictures({ desk }),
            jsxPlugin({ jsxComponentDescriptors: COMPONENTS }),
            markdownShortcutPlugin(),
            diffSourcePlugin({ viewMode: 'rich-text' }),
            toolbarPlugin({
              toolbarContents: () => (
                <DiffSourceToggleWrapper options={['rich-text', 'source']}>
                  <UndoRedo />
                  <Separator />
                  <BlockTypeSelect />
                  <BoldItalicUnderlineToggles options={['Bold', 'Italic']} />
                  <ListsToggle options={['bullet', 'number']} />
                  <Separator />
                  <CreateLink />
                  <InsertImage />
                  <InsertTable />
                  <InsertThematicBreak />
                  <Separator />
                  <InsertComponents copy={copy} />
                </DiffSourceToggleWrapper>
              ),
            }),
          ]}
        />
      </PictureContext.Provider>
    </EditorCopy.Provider>
  );
});
