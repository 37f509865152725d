import { useEffect, useState } from 'react';
import type { CampaignInput } from '../../../../lib/campaign-schema.ts';
import { isAbort, isAuthError, previewCampaign, type MailPreview as Preview } from '../api.ts';
import type { CampaignsCopy } from '../copy.ts';

interface Props {
  token: string;
  copy: CampaignsCopy;
  content: CampaignInput;
  onUnauthorized: () => void;
}

type View = 'html' | 'text';
type Width = 'phone' | 'desktop';

/** How long typing may pause before the preview is made again. */
const SETTLE_MS = 450;

/**
 * The mail as subscribers will get it, rendered by the server with the code that sends it: HTML in a
 * sandboxed frame (no script, no same-origin access) at phone or desktop width, or the plain-text part.
 */
export function MailPreview({ token, copy, content, onUnauthorized }: Props) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [view, setView] = useState<View>('html');
  const [width, setWidth] = useState<Width>('desktop');
  const ready = content.subject.trim() !== '' && content.markdown.trim() !== '';
  const key = JSON.stringify(content);

  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState('loading');
      previewCampaign(token, JSON.parse(key) as CampaignInput, controller.signal).then(
        (made) => {
          setPreview(made);
          setState('idle');
        },
        (error: unknown) => {
          if (isAbort(error)) return;
          if (isAuthError(error)) return onUnauthorized();
          setState('failed');
        },
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [token, key, ready, onUnauthorized]);

  const toggle = <T extends string>(
    label: string,
    value: T,
    options: Record<T, string>,
    set: (v: T) => void,
  ) => (
    <div className="admin-segmented" role="group" aria-label={label}>
      {(Object.keys(options) as T[]).map((option) => (
        <button
          key={option}
          type="button"
          className="admin-segmented__option"
          aria-pressed={value === option}
          onClick={() => set(option)}
        >
          {options[option]}
        </button>
      ))}
    </div>
  );

  return (
    <section className="admin-preview" aria-labelledby="admin-preview-heading">
      <div className="admin-preview__bar">
        <h3 id="admin-preview-heading" className="admin-preview__title">
          {copy.preview}
        </h3>
        {toggle(copy.preview_views, view, { html: copy.preview_html, text: copy.preview_text }, setView)}
        {view === 'html' &&
          toggle(
            copy.preview_widths,
            width,
            { phone: copy.preview_phone, desktop: copy.preview_desktop },
            setWidth,
          )}
      </div>
      <p className="admin-preview__state" role="status">
        {!ready
          ? copy.preview_empty
          : state === 'loading'
            ? copy.preview_loading
            : state === 'failed'
              ? copy.preview_failed
              : ''}
      </p>
      {ready && preview && (
        <div className={`admin-preview__stage admin-preview__stage--${view === 'html' ? width : 'text'}`}>
          {view === 'html' ? (
            <iframe
              className="admin-preview__frame"
              title={copy.preview_frame}
              sandbox=""
              srcDoc={preview.html}
            />
          ) : (
            <pre className="admin-preview__text" tabIndex={0} aria-label={copy.preview_text}>
              {preview.text}
            </pre>
          )}
        </div>
      )}
    </section>
  );
}
