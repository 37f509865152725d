// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SLIDER_INTERVAL_MS } from '../../src/scripts/image-slider.ts';

/** The server's markup (src/components/ImageSlider.astro) for three pictures, the first with a caption. */
const markup = `
  <image-slider data-play="Play" data-pause="Pause">
    <section class="slider" aria-roledescription="carousel" aria-label="Images for this article">
      <div class="slider__stage" aria-live="polite">
        ${[1, 2, 3]
          .map(
            (n) => `
          <figure class="slider__slide" data-active="${n === 1}" role="group" aria-roledescription="slide"
            aria-label="Image ${n} of 3" aria-hidden="${n !== 1}">
            <img src="/slide-${n}.svg" width="1200" height="675" alt="Drawing number ${n} of the water loop" />
            ${n === 1 ? '<figcaption class="slider__caption">The loop after passivation, 2024</figcaption>' : ''}
          </figure>`,
          )
          .join('')}
      </div>
      <div class="slider__controls">
        <button type="button" class="slider__step" aria-label="Previous image"></button>
        <ol class="slider__thumbs">
          ${[1, 2, 3]
            .map(
              (n) => `<li><button type="button" class="slider__thumb" aria-label="Show image ${n} of 3"
                ${n === 1 ? 'aria-current="true"' : ''}></button></li>`,
            )
            .join('')}
        </ol>
        <button type="button" class="slider__step" aria-label="Next image"></button>
        <button type="button" class="slider__play" aria-pressed="false">Play</button>
      </div>
    </section>
  </image-slider>`;

/** jsdom has no matchMedia: a reduced-motion query the test can answer and change. */
function motion(reduce: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: reduce,
    // As a real MediaQueryList: a listener goes when it is removed or when its signal aborts.
    addEventListener: (_: string, listener: () => void, options?: AddEventListenerOptions) => {
      listeners.add(listener);
      options?.signal?.addEventListener('abort', () => listeners.delete(listener));
    },
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  window.matchMedia = () => query as unknown as MediaQueryList;
  return {
    listeners,
    change(to: boolean) {
      query.matches = to;
      listeners.forEach((listener) => listener());
    },
  };
}

const slider = () => document.querySelector('image-slider') as HTMLElement;
const section = () => slider().querySelector('section')!;
const button = (name: string) => slider().querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!;
const play = () => slider().querySelector<HTMLButtonElement>('.slider__play')!;
const active = () => slider().querySelector('.slider__slide[data-active="true"]')!.getAttribute('aria-label');
const open = () => document.body.insertAdjacentHTML('beforeend', markup);
const key = (name: string) =>
  section().dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));

beforeEach(() => {
  vi.useFakeTimers();
  motion(true);
});

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('<image-slider>', () => {
  test('steps by the previous, next and thumbnail buttons, marking the slide and thumbnail shown', () => {
    open();
    expect(active()).toBe('Image 1 of 3');
    button('Next image').click();
    expect(active()).toBe('Image 2 of 3');
    button('Show image 3 of 3').click();
    expect(active()).toBe('Image 3 of 3');
    expect(button('Show image 3 of 3').getAttribute('aria-current')).toBe('true');
    expect(button('Show image 1 of 3').hasAttribute('aria-current')).toBe(false);
    button('Next image').click();
    expect(active()).toBe('Image 1 of 3');
    button('Previous image').click();
    expect(active()).toBe('Image 3 of 3');
    const hidden = [...slider().querySelectorAll('.slider__slide')].map((s) => s.getAttribute('aria-hidden'));
    expect(hidden).toEqual(['true', 'true', 'false']);
  });

  test('a caption stays in the figure of its picture and is hidden with it', () => {
    open();
    const caption = slider().querySelector('figcaption')!;
    expect(caption.textContent).toBe('The loop after passivation, 2024');
    expect(caption.closest('figure')!.getAttribute('aria-label')).toBe('Image 1 of 3');
    button('Next image').click();
    expect(caption.closest('figure')!.getAttribute('aria-hidden')).toBe('true');
    expect(slider().querySelectorAll('figcaption')).toHaveLength(1);
  });

  test('arrow keys, Home and End on the carousel step, and other keys do nothing', () => {
    open();
    key('ArrowLeft');
    expect(active()).toBe('Image 3 of 3');
    key('Home');
    expect(active()).toBe('Image 1 of 3');
    key('End');
    expect(active()).toBe('Image 3 of 3');
    key('ArrowRight');
    expect(active()).toBe('Image 1 of 3');
    expect(key('Tab')).toBe(true);
    expect(active()).toBe('Image 1 of 3');
  });

  test('a swipe of 40 px steps; a shorter one does not', () => {
    open();
    const stage = slider().querySelector('.slider__stage')!;
    const swipe = (from: number, to: number) => {
      stage.dispatchEvent(new MouseEvent('pointerdown', { clientX: from }));
      stage.dispatchEvent(new MouseEvent('pointerup', { clientX: to }));
    };
    swipe(300, 270);
    expect(active()).toBe('Image 1 of 3');
    swipe(300, 260);
    expect(active()).toBe('Image 2 of 3');
    swipe(260, 300);
    expect(active()).toBe('Image 1 of 3');
  });

  test('plays every 7 s where motion is welcome, silent to screen readers while it plays', () => {
    motion(false);
    open();
    expect(play().getAttribute('aria-pressed')).toBe('true');
    expect(play().textContent).toBe('Pause');
    expect(slider().querySelector('.slider__stage')!.getAttribute('aria-live')).toBe('off');
    vi.advanceTimersByTime(SLIDER_INTERVAL_MS - 1);
    expect(active()).toBe('Image 1 of 3');
    vi.advanceTimersByTime(1);
    expect(active()).toBe('Image 2 of 3');
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 1 of 3');
  });

  test('holds while hovered or focused, and goes on when left', () => {
    motion(false);
    open();
    slider().dispatchEvent(new MouseEvent('mouseenter'));
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 1 of 3');
    slider().dispatchEvent(new MouseEvent('mouseleave'));
    vi.advanceTimersByTime(SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 2 of 3');
    button('Next image').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 2 of 3');
    button('Next image').dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    vi.advanceTimersByTime(SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 3 of 3');
  });

  test('any step of the visitor stops it, and the button plays and pauses', () => {
    motion(false);
    open();
    key('ArrowRight');
    expect(play().getAttribute('aria-pressed')).toBe('false');
    expect(play().textContent).toBe('Play');
    expect(slider().querySelector('.slider__stage')!.getAttribute('aria-live')).toBe('polite');
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 2 of 3');
    play().click();
    expect(play().getAttribute('aria-pressed')).toBe('true');
    vi.advanceTimersByTime(SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 3 of 3');
    play().click();
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 3 of 3');
  });

  test('stays still when reduced motion is asked for, and stops when it is asked for later', () => {
    open();
    expect(play().getAttribute('aria-pressed')).toBe('false');
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 1 of 3');
    document.body.replaceChildren();

    const media = motion(false);
    open();
    media.change(true);
    expect(play().getAttribute('aria-pressed')).toBe('false');
    vi.advanceTimersByTime(2 * SLIDER_INTERVAL_MS);
    expect(active()).toBe('Image 1 of 3');
  });

  test('takes its interval from the markup', () => {
    motion(false);
    open();
    document.body.replaceChildren();
    document.body.insertAdjacentHTML(
      'beforeend',
      markup.replace('<image-slider', '<image-slider data-interval="3000"'),
    );
    vi.advanceTimersByTime(3000);
    expect(active()).toBe('Image 2 of 3');
  });

  test('a page that removes it leaves no timer or listener behind', () => {
    const media = motion(false);
    open();
    expect(vi.getTimerCount()).toBe(1);
    slider().remove();
    expect(vi.getTimerCount()).toBe(0);
    expect(media.listeners.size).toBe(0);
  });

  test('moved to another place in the page, it still takes one step a click', () => {
    motion(true);
    open();
    const element = slider();
    document.body.prepend(element);
    button('Next image').click();
    expect(active()).toBe('Image 2 of 3');
  });
});
