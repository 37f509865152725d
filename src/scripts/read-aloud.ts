/**
 * <read-aloud>: SPEC's read-aloud control over the browser's speech synthesis (the state machine is
 * src/lib/read-aloud.ts). The server draws its buttons hidden (src/components/ReadAloud.astro); where the
 * browser can speak this shows the main one and keeps both in step with the reader: idle offers "Listen", a
 * reading offers "Stop" and "Pause" (or "Resume"), and a status line says it is reading. Speech stops when the
 * page is left or the control removed. A React island until issue 38 (docs/decisions.md, "Cookie banner").
 */
import {
  createReader,
  type ReadAloudState,
  type Reader,
  type SpeechEngine,
  type SpeechUtteranceLike,
} from '../lib/read-aloud.ts';

const READABLE = 'h1, h2, h3, h4, p, li, caption, th, td, figcaption';
const SPEAKER_ICON = 'M4 9v6h4l5 4V5L8 9H4zm12.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z';
const STOP_ICON = 'M7 7h10v10H7z';

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

export class ReadAloudControl extends HTMLElement {
  #reader: Reader | undefined;
  #connection: AbortController | undefined;

  connectedCallback() {
    if (!('speechSynthesis' in window)) return;
    const main = this.querySelector<HTMLButtonElement>('.read-aloud__main')!;
    const pause = this.querySelector<HTMLButtonElement>('.read-aloud__pause')!;
    const status = this.querySelector<HTMLElement>('[role="status"]')!;
    const words = this.dataset;
    const show = (state: ReadAloudState) => {
      main.setAttribute('aria-pressed', String(state !== 'idle'));
      main.querySelector('path')!.setAttribute('d', state === 'idle' ? SPEAKER_ICON : STOP_ICON);
      main.querySelector('[data-label]')!.textContent = state === 'idle' ? words.listen! : words.stop!;
      pause.hidden = state === 'idle';
      pause.textContent = state === 'paused' ? words.resume! : words.pause!;
      status.textContent = state === 'speaking' ? words.status! : '';
    };
    // The DOM types are narrower than the reader's structural ones (typed event handlers); the shapes match.
    const reader = createReader({
      engine: window.speechSynthesis as unknown as SpeechEngine,
      createUtterance: (text) => new SpeechSynthesisUtterance(text) as unknown as SpeechUtteranceLike,
      // A German page (`<html lang="de">`) speaks German with a German voice, an English one English.
      language: document.documentElement.lang,
      voices: () => window.speechSynthesis.getVoices?.() ?? [],
      onChange: show,
    });
    this.#reader = reader;
    this.#connection = new AbortController();
    const { signal } = this.#connection;
    main.addEventListener('click', () => reader.toggle(chunksOf(this.dataset.source!)), { signal });
    pause.addEventListener('click', () => (reader.state === 'paused' ? reader.resume() : reader.pause()), {
      signal,
    });
    const stop = () => reader.stop();
    window.addEventListener('pagehide', stop, { signal });
    window.addEventListener('beforeunload', stop, { signal });
    main.hidden = false;
  }

  disconnectedCallback() {
    this.#connection?.abort();
    this.#reader?.stop();
  }
}

if (!customElements.get('read-aloud')) customElements.define('read-aloud', ReadAloudControl);
