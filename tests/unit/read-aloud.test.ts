import { beforeEach, describe, expect, test } from 'vitest';
import {
  createReader,
  pickVoice,
  prepareChunks,
  stripTags,
  voiceLocale,
  type ReadAloudState,
  type Reader,
  type SpeechUtteranceLike,
} from '../../src/lib/read-aloud.ts';

/** A speechSynthesis stand-in: it records calls and lets the test finish the current utterance. */
class FakeSpeech {
  spoken: SpeechUtteranceLike[] = [];
  calls: string[] = [];
  current: SpeechUtteranceLike | undefined;
  speak(utterance: SpeechUtteranceLike) {
    this.calls.push('speak');
    this.spoken.push(utterance);
    this.current = utterance;
  }
  cancel() {
    this.calls.push('cancel');
    const cancelled = this.current;
    this.current = undefined;
    // Real engines report the cancelled utterance as ended or interrupted.
    cancelled?.onerror?.({ error: 'interrupted' });
    cancelled?.onend?.({});
  }
  pause() {
    this.calls.push('pause');
  }
  resume() {
    this.calls.push('resume');
  }
  finish() {
    const done = this.current;
    this.current = undefined;
    done?.onend?.({});
  }
}

let speech: FakeSpeech;
let states: ReadAloudState[];
let reader: Reader;

function makeReader(language = 'en') {
  return createReader({
    engine: speech,
    createUtterance: (text) => ({ text, lang: '', onend: null, onerror: null }),
    language,
    onChange: (state) => states.push(state),
  });
}

beforeEach(() => {
  speech = new FakeSpeech();
  states = [];
  reader = makeReader();
});

describe('stripTags', () => {
  test('removes markup and decodes common entities', () => {
    expect(stripTags('<h2>Grade <em>A</em> &amp; B</h2>')).toBe('Grade A & B');
  });
  test('collapses whitespace left by block tags', () => {
    expect(stripTags('<p>one</p>\n\n<p>two</p>')).toBe('one two');
  });
});

describe('prepareChunks', () => {
  test('skips chunks that are empty after stripping and trimming', () => {
    expect(prepareChunks(['  ', '<p> </p>', 'Closed systems', '<br/>', '\n'])).toEqual(['Closed systems']);
  });
});

describe('voiceLocale', () => {
  test.each([
    ['ge', 'ka-GE'],
    ['ru', 'ru-RU'],
    ['en', 'en-US'],
    ['de', 'de-DE'],
    ['fr', 'en-US'],
    ['', 'en-US'],
  ])('%j speaks %s', (language, locale) => {
    expect(voiceLocale(language)).toBe(locale);
  });
  test('sets the locale on every utterance', () => {
    reader = makeReader('ge');
    reader.start(['one']);
    expect(speech.spoken[0]!.lang).toBe('ka-GE');
  });
});

describe('pickVoice', () => {
  const voices = [
    { name: 'Google US English', lang: 'en-US', default: true, localService: false },
    { name: 'Anna', lang: 'de_AT', localService: true },
    { name: 'Google Deutsch', lang: 'de-DE', localService: false },
    { name: 'Markus', lang: 'de-DE', localService: true },
  ];

  test('takes a voice of exactly the locale, on-device first', () => {
    expect(pickVoice(voices, 'de-DE')?.name).toBe('Markus');
    expect(pickVoice(voices, 'en-US')?.name).toBe('Google US English');
  });

  test('falls back to the same language, and to none when the engine has no voice of it', () => {
    expect(pickVoice(voices.slice(0, 2), 'de-DE')?.name).toBe('Anna');
    expect(pickVoice(voices, 'ka-GE')).toBeUndefined();
  });

  test('a German reader speaks every chunk in de-DE with the German voice', () => {
    reader = createReader({
      engine: speech,
      createUtterance: (text) => ({ text, lang: '', onend: null, onerror: null }),
      language: 'de',
      voices: () => voices,
    });
    reader.start(['Reinraumklasse A', 'Druckkaskade']);
    speech.finish();
    expect(speech.spoken.map((u) => [u.lang, u.voice?.name])).toEqual([
      ['de-DE', 'Markus'],
      ['de-DE', 'Markus'],
    ]);
  });
});

describe('reader', () => {
  test('a click while idle starts speaking the first chunk', () => {
    reader.toggle(['<p>First</p>', 'Second']);
    expect(reader.state).toBe('speaking');
    expect(speech.spoken.map((u) => u.text)).toEqual(['First']);
  });

  test('speaks the chunks one after another, skipping empty ones', () => {
    reader.start(['First', ' ', 'Second', '<span></span>', 'Third']);
    speech.finish();
    speech.finish();
    expect(speech.spoken.map((u) => u.text)).toEqual(['First', 'Second', 'Third']);
    expect(reader.position).toBe(2);
  });

  test('after the last chunk resets the position and returns to idle', () => {
    reader.start(['First', 'Second']);
    speech.finish();
    speech.finish();
    expect(reader.state).toBe('idle');
    expect(reader.position).toBe(0);
    expect(states).toEqual(['speaking', 'idle']);
  });

  test('a click while speaking stops speech and returns to idle', () => {
    reader.toggle(['First', 'Second']);
    reader.toggle(['First', 'Second']);
    expect(reader.state).toBe('idle');
    expect(speech.calls).toEqual(['speak', 'cancel']);
    expect(speech.spoken).toHaveLength(1);
    expect(reader.position).toBe(0);
  });

  test('pause and resume move between speaking and paused', () => {
    reader.start(['First']);
    reader.pause();
    expect(reader.state).toBe('paused');
    reader.resume();
    expect(reader.state).toBe('speaking');
    expect(speech.calls).toEqual(['speak', 'pause', 'resume']);
  });

  test('a click while paused stops and returns to idle', () => {
    reader.start(['First']);
    reader.pause();
    reader.toggle(['First']);
    expect(reader.state).toBe('idle');
    expect(speech.calls.at(-1)).toBe('cancel');
  });

  test('the end event of a cancelled utterance does not advance a new reading', () => {
    reader.start(['First', 'Second']);
    const stale = speech.current!;
    reader.stop();
    reader.start(['Again', 'More']);
    stale.onend?.({});
    expect(speech.spoken.map((u) => u.text)).toEqual(['First', 'Again']);
    expect(reader.position).toBe(0);
  });

  test('an engine error stops the reading', () => {
    reader.start(['First', 'Second']);
    speech.current!.onerror?.({ error: 'synthesis-failed' });
    expect(reader.state).toBe('idle');
  });

  test('start does nothing when every chunk is empty', () => {
    reader.start(['', '<p></p>']);
    expect(reader.state).toBe('idle');
    expect(speech.calls).toEqual([]);
  });

  test('pause while idle and resume while speaking are ignored', () => {
    reader.pause();
    reader.start(['First']);
    reader.resume();
    expect(speech.calls).toEqual(['speak']);
  });
});
