// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import ReadAloud from '../../src/components/islands/ReadAloud.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const copy = {
  listen: 'Listen',
  stop: 'Stop',
  pause: 'Pause',
  resume: 'Resume',
  status: 'Reading aloud',
  errorHeading: 'Error',
};

class Utterance {
  lang = '';
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  text: string;
  constructor(text: string) {
    this.text = text;
  }
}

let container: HTMLDivElement;
let root: Root;
let engine: {
  speak: ReturnType<typeof vi.fn>;
  cancel: ReturnType<typeof vi.fn>;
  pause: ReturnType<typeof vi.fn>;
  resume: ReturnType<typeof vi.fn>;
};

beforeEach(() => {
  document.body.innerHTML =
    '<article id="text"><h2>Closed <em>systems</em></h2><p> </p><p>Single-use bags.</p></article>';
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  engine = { speak: vi.fn(), cancel: vi.fn(), pause: vi.fn(), resume: vi.fn() };
  Object.assign(window, { speechSynthesis: engine, SpeechSynthesisUtterance: Utterance });
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  delete (window as { speechSynthesis?: unknown }).speechSynthesis;
});

const mainButton = () => container.querySelector<HTMLButtonElement>('.read-aloud__main')!;

describe('ReadAloud', () => {
  test('offers no control where the browser has no speech synthesis', () => {
    delete (window as { speechSynthesis?: unknown }).speechSynthesis;
    act(() => root.render(<ReadAloud source="#text" copy={copy} />));
    expect(container.querySelector('button')).toBeNull();
  });

  test('reads the source element block by block, as plain text', () => {
    act(() => root.render(<ReadAloud source="#text" copy={copy} />));
    act(() => mainButton().click());
    expect(engine.speak).toHaveBeenCalledTimes(1);
    expect(engine.speak.mock.calls[0]![0]).toMatchObject({ text: 'Closed systems', lang: 'en-US' });
    expect(mainButton().textContent).toContain('Stop');
    const first = engine.speak.mock.calls[0]![0] as Utterance;
    act(() => first.onend?.());
    expect(engine.speak.mock.calls[1]![0]).toMatchObject({ text: 'Single-use bags.' });
  });

  test('on a German page speaks de-DE with a German voice, on an English page en-US', () => {
    const voices = [
      { name: 'Samantha', lang: 'en-US', default: true, localService: true },
      { name: 'Anna', lang: 'de-DE', default: false, localService: true },
    ];
    Object.assign(engine, { getVoices: () => voices });
    document.documentElement.lang = 'de';
    try {
      act(() => root.render(<ReadAloud source="#text" copy={copy} />));
      act(() => mainButton().click());
      expect(engine.speak.mock.calls[0]![0]).toMatchObject({ lang: 'de-DE', voice: { name: 'Anna' } });
    } finally {
      document.documentElement.lang = 'en';
    }
    act(() => root.unmount());
    root = createRoot(container);
    act(() => root.render(<ReadAloud source="#text" copy={copy} />));
    act(() => mainButton().click());
    expect(engine.speak.mock.calls.at(-1)![0]).toMatchObject({ lang: 'en-US', voice: { name: 'Samantha' } });
  });

  test('cancels speech when it is removed from the page', () => {
    act(() => root.render(<ReadAloud source="#text" copy={copy} />));
    act(() => mainButton().click());
    act(() => root.unmount());
    root = createRoot(container);
    expect(engine.cancel).toHaveBeenCalled();
  });

  test('cancels speech when the page unloads', () => {
    act(() => root.render(<ReadAloud source="#text" copy={copy} />));
    act(() => mainButton().click());
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(engine.cancel).toHaveBeenCalled();
    expect(mainButton().textContent).toContain('Listen');
  });
});
