/** Copy handed to the React islands as props (islands do not load i18next themselves). */
import type { TFunction } from 'i18next';
import type { ImageSliderCopy } from '../components/islands/ImageSlider.tsx';
import type { ReadAloudCopy } from '../components/islands/ReadAloud.tsx';

export function readAloudCopy(t: TFunction): ReadAloudCopy {
  return {
    listen: t('blog:read_aloud.listen'),
    stop: t('blog:read_aloud.stop'),
    pause: t('blog:read_aloud.pause'),
    resume: t('blog:read_aloud.resume'),
    status: t('blog:read_aloud.status'),
    errorHeading: t('common:error_boundary.heading'),
  };
}

export function sliderCopy(t: TFunction): ImageSliderCopy {
  return {
    label: t('blog:slider.label'),
    previous: t('blog:slider.previous'),
    next: t('blog:slider.next'),
    position: t('blog:slider.position'),
    show: t('blog:slider.show'),
    play: t('blog:slider.play'),
    pause: t('blog:slider.pause'),
    errorHeading: t('common:error_boundary.heading'),
  };
}
