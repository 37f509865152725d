// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import '../../src/scripts/read-aloud.ts';

/** src/components/ReadAloud.astro's markup, with the words the script swaps in. */
const control = `
  <read-aloud data-source="#text" data-listen="Listen" data-stop="Stop" data-pause="Pause" data-resume="Resume"
    data-status="Reading aloud">
    <button type="button" class="read-aloud__main" aria-pressed="false" hidden><svg><path d=""></path></svg><span data-label>Listen</span></button>
    <button type="button" class="read-aloud__pause" hidden>Pause</button>
    <span role="status"></span>
  </read-aloud>`;

class Utterance {
  lang = '';
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  text: string;
  constructor(text: string) {
    this.text = text;
  }
}

let engine: {
  speak: ReturnType<typeof vi.fn>;
  cancel: ReturnType<typeof vi.fn>;
  pause: ReturnType<typeof vi.fn>;
  resume: ReturnType<typeof vi.fn>;
};

const mount = () => document.body.insertAdjacentHTML('beforeend', control);
const element = () => document.querySelector('read-aloud')!;
const mainButton = () => document.querySelector<HTMLButtonElement>('.read-aloud__main')!;
const pauseButton = () => document.querySelector<HTMLButtonElement>('.read-aloud__pause')!;
const spoken = (call: number) => engine.speak.mock.calls.at(call)![0] as Utterance;

beforeEach(() => {
  // An English page, whatever an earlier file in this worker left on <html> (unit files share it: isolate off).
  document.documentElement.lang = 'en';
  document.body.innerHTML =
    '<article id="text"><h2>Closed <em>systems</em></h2><p> </p><p>Single-use bags.</p></article>';
  engine = { speak: vi.fn(), cancel: vi.fn(), pause: vi.fn(), resume: vi.fn() };
  Object.assign(window, { speechSynthesis: engine, SpeechSynthesisUtterance: Utterance });
});

afterEach(() => {
  document.body.replaceChildren();
  delete (window as { speechSynthesis?: unknown }).speechSynthesis;
});

describe('<read-aloud>', () => {
  test('offers no control where the browser has no speech synthesis', () => {
    delete (window as { speechSynthesis?: unknown }).speechSynthesis;
    mount();
    expect(mainButton().hidden).toBe(true);
    expect(pauseButton().hidden).toBe(true);
  });

  test('reads the source element block by block, as plain text, and returns to idle after the last', () => {
    mount();
    expect(mainButton().hidden).toBe(false);
    mainButton().click();
    expect(engine.speak).toHaveBeenCalledTimes(1);
    expect(spoken(0)).toMatchObject({ text: 'Closed systems', lang: 'en-US' });
    expect(mainButton().textContent).toBe('Stop');
    expect(mainButton().getAttribute('aria-pressed')).toBe('true');
    expect(element().querySelector('[role="status"]')!.textContent).toBe('Reading aloud');
    spoken(0).onend?.();
    expect(spoken(1)).toMatchObject({ text: 'Single-use bags.' });
    spoken(1).onend?.();
    expect(mainButton().textContent).toBe('Listen');
    expect(mainButton().getAttribute('aria-pressed')).toBe('false');
    expect(pauseButton().hidden).toBe(true);
  });

  test('Pause and Resume while reading; the main button stops', () => {
    mount();
    mainButton().click();
    expect(pauseButton().hidden).toBe(false);
    pauseButton().click();
    expect(engine.pause).toHaveBeenCalledTimes(1);
    expect(pauseButton().textContent).toBe('Resume');
    expect(element().querySelector('[role="status"]')!.textContent).toBe('');
    pauseButton().click();
    expect(engine.resume).toHaveBeenCalledTimes(1);
    expect(pauseButton().textContent).toBe('Pause');
    mainButton().click();
    expect(engine.cancel).toHaveBeenCalled();
    expect(mainButton().textContent).toBe('Listen');
  });

  test('on a German page speaks de-DE with a German voice, on an English page en-US', () => {
    const voices = [
      { name: 'Samantha', lang: 'en-US', default: true, localService: true },
      { name: 'Anna', lang: 'de-DE', default: false, localService: true },
    ];
    Object.assign(engine, { getVoices: () => voices });
    document.documentElement.lang = 'de';
    try {
      mount();
      mainButton().click();
      expect(spoken(0)).toMatchObject({ lang: 'de-DE', voice: { name: 'Anna' } });
    } finally {
      document.documentElement.lang = 'en';
    }
    element().remove();
    mount();
    mainButton().click();
    expect(spoken(-1)).toMatchObject({ lang: 'en-US', voice: { name: 'Samantha' } });
  });

  test('cancels speech when it is removed from the page, and listens to nothing after', () => {
    mount();
    mainButton().click();
    const button = mainButton();
    element().remove();
    expect(engine.cancel).toHaveBeenCalled();
    button.click();
    expect(engine.speak).toHaveBeenCalledTimes(1);
  });

  test('cancels speech when the page unloads', () => {
    mount();
    mainButton().click();
    window.dispatchEvent(new Event('pagehide'));
    expect(engine.cancel).toHaveBeenCalled();
    expect(mainButton().textContent).toBe('Listen');
  });
});
