/**
 * <image-slider>: the article's pictures (and the drawings on /thanks), drawn by the server with the first one
 * showing (src/components/ImageSlider.astro); this makes them move. Crossfade through `data-active`, previous,
 * next and thumbnail buttons, arrow keys with Home and End, a 40 px swipe, and a Play/Pause button (WCAG 2.2.2).
 * It plays by itself every 7 s only where reduced motion is not asked for, holds while hovered or focused, and
 * any step the visitor takes stops it. It was a React island until issue 38: React's 68 KB were over half of an
 * article's first-visit byte budget (docs/decisions.md, "Slider").
 */

/** Horizontal distance, in CSS pixels, that counts as a swipe. */
const SWIPE_PX = 40;
/** Time each slide stays while playing, unless the markup's `data-interval` says otherwise. */
export const SLIDER_INTERVAL_MS = 7000;

export class ImageSlider extends HTMLElement {
  #index = 0;
  #playing = false;
  /** Hovered or focused: the autoplay waits (as React's island did, one flag for both). */
  #held = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #swipeStart: number | null = null;
  #reduce: MediaQueryList | undefined;
  #slides: HTMLElement[] = [];
  #thumbs: HTMLElement[] = [];
  /** Aborted when the element leaves the page: every listener below goes with it. */
  #connection: AbortController | undefined;

  connectedCallback() {
    this.#slides = [...this.querySelectorAll<HTMLElement>('.slider__slide')];
    this.#thumbs = [...this.querySelectorAll<HTMLElement>('.slider__thumb')];
    this.#connection = new AbortController();
    const listen = (target: EventTarget, type: string, listener: (event: Event) => void) =>
      target.addEventListener(type, listener, { signal: this.#connection!.signal });
    // The element holds the carousel <section> and nothing else: its events are the section's.
    listen(this, 'keydown', (event) => this.#onKey(event as KeyboardEvent));
    for (const type of ['mouseenter', 'focusin']) listen(this, type, () => this.#hold(true));
    for (const type of ['mouseleave', 'focusout']) listen(this, type, () => this.#hold(false));
    const stage = this.querySelector<HTMLElement>('.slider__stage')!;
    listen(stage, 'pointerdown', (event) => (this.#swipeStart = (event as PointerEvent).clientX));
    listen(stage, 'pointerup', (event) => this.#onSwipe((event as PointerEvent).clientX));
    const [previous, next] = this.querySelectorAll('.slider__step');
    listen(previous!, 'click', () => this.#step(this.#index - 1));
    listen(next!, 'click', () => this.#step(this.#index + 1));
    this.#thumbs.forEach((thumb, i) => listen(thumb, 'click', () => this.#step(i)));
    listen(this.querySelector('.slider__play')!, 'click', () => this.#setPlaying(!this.#playing));

    // Plays by itself only where motion is welcome; the play button stays for everyone.
    this.#reduce = window.matchMedia('(prefers-reduced-motion: reduce)');
    listen(this.#reduce, 'change', () => {
      if (this.#reduce!.matches) this.#setPlaying(false);
    });
    this.#setPlaying(!this.#reduce.matches);
  }

  disconnectedCallback() {
    clearTimeout(this.#timer);
    this.#connection?.abort();
  }

  /** A step the visitor takes: it stops playing. */
  #step(target: number) {
    this.#playing = false;
    this.#show(target);
  }

  #show(target: number) {
    const count = this.#slides.length;
    this.#index = ((target % count) + count) % count;
    this.#slides.forEach((slide, i) => {
      slide.dataset.active = String(i === this.#index);
      slide.setAttribute('aria-hidden', String(i !== this.#index));
    });
    this.#thumbs.forEach((thumb, i) => {
      if (i === this.#index) thumb.setAttribute('aria-current', 'true');
      else thumb.removeAttribute('aria-current');
    });
    this.#render();
  }

  #setPlaying(playing: boolean) {
    this.#playing = playing;
    this.#render();
  }

  #hold(held: boolean) {
    this.#held = held;
    this.#schedule();
  }

  /** The play button and the stage's live region follow `#playing`; then the next turn is scheduled. */
  #render() {
    const button = this.querySelector('.slider__play')!;
    button.setAttribute('aria-pressed', String(this.#playing));
    button.textContent = (this.#playing ? this.dataset.pause : this.dataset.play) ?? '';
    // Announce a slide the visitor chose, not every turn of the autoplay.
    this.querySelector('.slider__stage')!.setAttribute('aria-live', this.#playing ? 'off' : 'polite');
    this.#schedule();
  }

  #schedule() {
    clearTimeout(this.#timer);
    if (!this.#playing || this.#held || this.#slides.length < 2) return;
    const interval = Number(this.dataset.interval) || SLIDER_INTERVAL_MS;
    this.#timer = setTimeout(() => this.#show(this.#index + 1), interval);
  }

  #onKey(event: KeyboardEvent) {
    const moves: Record<string, number> = {
      ArrowLeft: this.#index - 1,
      ArrowRight: this.#index + 1,
      Home: 0,
      End: this.#slides.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    this.#step(target);
  }

  #onSwipe(x: number) {
    if (this.#swipeStart === null) return;
    const dx = x - this.#swipeStart;
    this.#swipeStart = null;
    if (Math.abs(dx) < SWIPE_PX) return;
    this.#step(dx < 0 ? this.#index + 1 : this.#index - 1);
  }
}

customElements.define('image-slider', ImageSlider);
