/**
 * The read-aloud control's logic, free of React and of the browser: chunk preparation, the voice locale and
 * a small state machine over anything shaped like `window.speechSynthesis`.
 *
 * States: idle → (start) → speaking ⇄ (pause / resume) paused; stop from either returns to idle, and so does
 * the end of the last chunk, which also resets the position to the first chunk.
 */
export type ReadAloudState = 'idle' | 'speaking' | 'paused';

/** The parts of `SpeechSynthesis` the reader uses. */
export interface SpeechEngine {
  speak(utterance: SpeechUtteranceLike): void;
  cancel(): void;
  pause(): void;
  resume(): void;
}

/** The parts of `SpeechSynthesisVoice` the reader looks at. */
export interface SpeechVoiceLike {
  lang: string;
  name: string;
  default?: boolean;
  localService?: boolean;
}

/** The parts of `SpeechSynthesisUtterance` the reader uses. */
export interface SpeechUtteranceLike {
  text: string;
  lang: string;
  /** Absent in engines that choose by `lang` alone. */
  voice?: SpeechVoiceLike | null;
  onend: ((event: unknown) => void) | null;
  onerror: ((event: { error?: string }) => void) | null;
}

/**
 * SPEC §7: `ge` speaks Georgian, `ru` Russian, everything else American English; issue 25 adds German
 * (`de`, the `<html lang>` of the /de pages) with a German voice.
 */
export function voiceLocale(language: string): 'ka-GE' | 'ru-RU' | 'de-DE' | 'en-US' {
  if (language === 'ge') return 'ka-GE';
  if (language === 'ru') return 'ru-RU';
  if (language === 'de') return 'de-DE';
  return 'en-US';
}

/** `de_DE`, `de-de` → `de-DE`-comparable form: lower case with hyphens. */
const tag = (lang: string) => lang.replace(/_/g, '-').toLowerCase();

/**
 * The voice that speaks a locale: one of exactly that locale, else one of the same language (a `de-AT` voice
 * for `de-DE`), preferring the engine's default and then an on-device voice; none when the engine has no
 * voice of the language (the engine then picks by the utterance's `lang`).
 * @example pickVoice(speechSynthesis.getVoices(), 'de-DE') // Google Deutsch (de-DE)
 */
export function pickVoice<V extends SpeechVoiceLike>(voices: readonly V[], locale: string): V | undefined {
  const wanted = tag(locale);
  const language = wanted.split('-')[0]!;
  const rank = (voice: V) =>
    (tag(voice.lang) === wanted ? 0 : 4) + (voice.default ? 0 : 2) + (voice.localService ? 0 : 1);
  return voices
    .filter((voice) => tag(voice.lang).split('-')[0] === language)
    .sort((a, b) => rank(a) - rank(b))[0];
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
  nbsp: ' ',
};

/**
 * Removes markup tags and decodes the common entities, then collapses whitespace.
 * @example stripTags('<p>Grade <b>A</b> &amp; B</p>') // 'Grade A & B'
 */
export function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Strips every chunk and drops the ones with nothing left to say. */
export function prepareChunks(chunks: readonly string[]): string[] {
  return chunks.map(stripTags).filter((chunk) => chunk !== '');
}

export interface ReaderOptions {
  engine: SpeechEngine;
  createUtterance: (text: string) => SpeechUtteranceLike;
  language: string;
  /** The engine's voices (`speechSynthesis.getVoices()`), asked at every utterance: browsers load them late. */
  voices?: () => readonly SpeechVoiceLike[];
  /** Called on every state change. */
  onChange?: (state: ReadAloudState) => void;
}

export interface Reader {
  readonly state: ReadAloudState;
  /** Index of the chunk being (or next to be) spoken. */
  readonly position: number;
  /** From idle: speaks `chunks` one after another. Ignored unless idle. */
  start(chunks: readonly string[]): void;
  pause(): void;
  resume(): void;
  /** Cancels speech and returns to idle at the first chunk. */
  stop(): void;
  /** The one control of SPEC §4: idle starts, speaking (or paused) stops and returns to idle. */
  toggle(chunks: readonly string[]): void;
}

export function createReader({ engine, createUtterance, language, voices, onChange }: ReaderOptions): Reader {
  const locale = voiceLocale(language);
  let state: ReadAloudState = 'idle';
  let position = 0;
  let queue: string[] = [];
  // Bumped on every stop, so the end event of a cancelled utterance cannot advance a new reading.
  let generation = 0;

  const set = (next: ReadAloudState) => {
    if (next === state) return;
    state = next;
    onChange?.(state);
  };

  const speakFrom = (run: number) => {
    if (run !== generation) return;
    if (position >= queue.length) {
      position = 0;
      set('idle');
      return;
    }
    const utterance = createUtterance(queue[position]!);
    utterance.lang = locale;
    const voice = voices && pickVoice(voices(), locale);
    if (voice) utterance.voice = voice;
    utterance.onend = () => {
      if (run !== generation) return;
      position += 1;
      speakFrom(run);
    };
    utterance.onerror = (event) => {
      if (run !== generation || event.error === 'interrupted' || event.error === 'canceled') return;
      reader.stop();
    };
    engine.speak(utterance);
  };

  const reader: Reader = {
    get state() {
      return state;
    },
    get position() {
      return position;
    },
    start(chunks) {
      if (state !== 'idle') return;
      queue = prepareChunks(chunks);
      position = 0;
      if (queue.length === 0) return;
      set('speaking');
      speakFrom(generation);
    },
    pause() {
      if (state !== 'speaking') return;
      engine.pause();
      set('paused');
    },
    resume() {
      if (state !== 'paused') return;
      engine.resume();
      set('speaking');
    },
    stop() {
      generation += 1;
      engine.cancel();
      position = 0;
      set('idle');
    },
    toggle(chunks) {
      if (state === 'idle') reader.start(chunks);
      else reader.stop();
    },
  };
  return reader;
}
