import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import IslandErrorBoundary from './IslandErrorBoundary.tsx';
import './ImageSlider.css';

export interface SlideImage {
  src: string;
  width: number;
  height: number;
  alt: string;
  /** Printed over the foot of the picture, for everyone. */
  caption?: string;
  /** A smaller rendition for the thumbnail strip. */
  thumb: string;
}

export interface ImageSliderCopy {
  /** Names the carousel, e.g. "Images for this article". */
  label: string;
  previous: string;
  next: string;
  /** "Image {n} of {total}" with the placeholders filled by the slider. */
  position: string;
  /** "Show image {n}" for the thumbnails. */
  show: string;
  play: string;
  pause: string;
  errorHeading: string;
}

interface Props {
  images: SlideImage[];
  copy: ImageSliderCopy;
  /** Time each slide stays while playing. @default 7000 */
  intervalMs?: number;
}

/** Horizontal distance, in CSS pixels, that counts as a swipe. */
const SWIPE_PX = 40;

const fill = (template: string, values: Record<string, number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

function Slider({ images, copy, intervalMs = 7000 }: Props) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [hovered, setHovered] = useState(false);
  const swipeStart = useRef<number | null>(null);
  const count = images.length;

  const go = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);

  // Plays by itself only where motion is welcome; the play button stays for everyone.
  useEffect(() => {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)');
    setPlaying(!reduce?.matches);
    const onChange = () => reduce?.matches && setPlaying(false);
    reduce?.addEventListener?.('change', onChange);
    return () => reduce?.removeEventListener?.('change', onChange);
  }, []);

  useEffect(() => {
    if (!playing || hovered || count < 2) return;
    const timer = window.setTimeout(() => go(index + 1), intervalMs);
    return () => window.clearTimeout(timer);
  }, [playing, hovered, index, count, intervalMs, go]);

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowLeft: index - 1,
      ArrowRight: index + 1,
      Home: 0,
      End: count - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    setPlaying(false);
    go(target);
  };

  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeStart.current === null) return;
    const dx = event.clientX - swipeStart.current;
    swipeStart.current = null;
    if (Math.abs(dx) < SWIPE_PX) return;
    setPlaying(false);
    go(dx < 0 ? index + 1 : index - 1);
  };

  return (
    <section
      className="slider"
      aria-roledescription="carousel"
      aria-label={copy.label}
      onKeyDown={onKeyDown}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
    >
      <div
        className="slider__stage"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        aria-live={playing ? 'off' : 'polite'}
      >
        {images.map((image, i) => (
          <figure
            key={image.src}
            className="slider__slide"
            data-active={i === index}
            role="group"
            aria-roledescription="slide"
            aria-label={fill(copy.position, { n: i + 1, total: count })}
            aria-hidden={i !== index}
          >
            <img
              src={image.src}
              width={image.width}
              height={image.height}
              alt={image.alt}
              loading={i === 0 ? 'eager' : 'lazy'}
              // The first slide is the article's largest picture: fetch it with the stylesheets, not after layout.
              fetchPriority={i === 0 ? 'high' : undefined}
              decoding="async"
              draggable={false}
            />
            {image.caption && <figcaption className="slider__caption">{image.caption}</figcaption>}
          </figure>
        ))}
      </div>
      <div className="slider__controls">
        <button
          type="button"
          className="slider__step"
          onClick={() => (setPlaying(false), go(index - 1))}
          aria-label={copy.previous}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <ol className="slider__thumbs">
          {images.map((image, i) => (
            <li key={image.src}>
              <button
                type="button"
                className="slider__thumb"
                aria-current={i === index ? 'true' : undefined}
                aria-label={fill(copy.show, { n: i + 1, total: count })}
                onClick={() => (setPlaying(false), go(i))}
              >
                <img src={image.thumb} alt="" width="96" height="54" loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="slider__step"
          onClick={() => (setPlaying(false), go(index + 1))}
          aria-label={copy.next}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <button
          type="button"
          className="slider__play"
          aria-pressed={playing}
          onClick={() => setPlaying(!playing)}
        >
          {playing ? copy.pause : copy.play}
        </button>
      </div>
    </section>
  );
}

/** Article images with crossfade, thumbnails, keyboard and swipe; still unless motion is welcome. */
export default function ImageSlider(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Slider {...props} />
    </IslandErrorBoundary>
  );
}
