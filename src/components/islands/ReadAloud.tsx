import { useEffect, useRef, useState } from 'react';
import {
  createReader,
  type ReadAloudState,
  type Reader,
  type SpeechEngine,
  type SpeechUtteranceLike,
} from '../../lib/read-aloud.ts';
import IslandErrorBoundary from './IslandErrorBoundary.tsx';
import './ReadAloud.css';

export interface ReadAloudCopy {
  listen: string;
  stop: string;
  pause: string;
  resume: string;
  /** Announced while speaking, e.g. "Reading aloud". */
  status: string;
  errorHeading: string;
}

interface Props {
  /** CSS selector of the element whose headings, paragraphs, list items and table cells are read. */
  source: string;
  /** Interface language code; picks the voice (SPEC §7). @default the page's `<html lang>` */
  language?: string;
  copy: ReadAloudCopy;
}

const READABLE = 'h1, h2, h3, h4, p, li, caption, th, td, figcaption';

/** The markup of each readable block, in document order; nested blocks (a p inside an li) are read once. */
function chunksOf(selector: string): string[] {
  const root = document.querySelector(selector);
  if (!root) return [];
  return [...root.querySelectorAll<HTMLElement>(READABLE)]
    .filter((element) => {
      const outer = element.parentElement?.closest(READABLE);
      return !outer || !root.contains(outer);
    })
    .filter((element) => !element.closest('[aria-hidden="true"], .visually-hidden, [data-read-aloud-skip]'))
    .map((element) => element.innerHTML);
}

function Control({ source, language, copy }: Props) {
  const [supported, setSupported] = useState(false);
  const [state, setState] = useState<ReadAloudState>('idle');
  const reader = useRef<Reader | null>(null);

  useEffect(() => {
    if (typeof window === 'undefined' || !('speechSynthesis' in window)) return;
    // The DOM types are narrower than the reader's structural ones (typed event handlers); the shapes match.
    const engine = window.speechSynthesis as unknown as SpeechEngine;
    reader.current = createReader({
      engine,
      createUtterance: (text) => new SpeechSynthesisUtterance(text) as unknown as SpeechUtteranceLike,
      // A German page (`<html lang="de">`) speaks German with a German voice, an English one English.
      language: language ?? document.documentElement.lang,
      voices: () => window.speechSynthesis.getVoices?.() ?? [],
      onChange: setState,
    });
    setSupported(true);
    const stop = () => reader.current?.stop();
    window.addEventListener('pagehide', stop);
    window.addEventListener('beforeunload', stop);
    return () => {
      window.removeEventListener('pagehide', stop);
      window.removeEventListener('beforeunload', stop);
      stop();
    };
  }, [language]);

  // The wrapper always renders (client:visible needs an element to watch); the buttons only where the
  // browser can speak.
  if (!supported) return <div className="read-aloud" />;

  return (
    <div className="read-aloud">
      <button
        type="button"
        className="read-aloud__main"
        aria-pressed={state !== 'idle'}
        onClick={() => reader.current?.toggle(chunksOf(source))}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          {state === 'idle' ? (
            <path
              d="M4 9v6h4l5 4V5L8 9H4zm12.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z"
              fill="currentColor"
            />
          ) : (
            <path d="M7 7h10v10H7z" fill="currentColor" />
          )}
        </svg>
        {state === 'idle' ? copy.listen : copy.stop}
      </button>
      {state !== 'idle' && (
        <button
          type="button"
          className="read-aloud__pause"
          onClick={() => (state === 'paused' ? reader.current?.resume() : reader.current?.pause())}
        >
          {state === 'paused' ? copy.resume : copy.pause}
        </button>
      )}
      <span className="visually-hidden" role="status">
        {state === 'speaking' ? copy.status : ''}
      </span>
    </div>
  );
}

/** Reads the page's text aloud with the browser's speech synthesis; hidden where there is none. */
export default function ReadAloud(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Control {...props} />
    </IslandErrorBoundary>
  );
}
