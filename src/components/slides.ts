/** Slides for the image slider (ImageSlider.astro) from content images (articles, news, the thank-you page). */
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';

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
  /** "Image {n} of {total}" with the placeholders filled by the server. */
  position: string;
  /** "Show image {n}" for the thumbnails. */
  show: string;
  play: string;
  pause: string;
}

/** Drawings stay SVG (sharp at any size, a few KB); photos become WebP at slide and thumbnail sizes. */
export function slidesFrom(
  images: { src: ImageMetadata; alt: string; caption?: string | undefined }[],
): Promise<SlideImage[]> {
  return Promise.all(
    images.map(async ({ src, alt, caption }) => {
      const height = Math.round((1200 * src.height) / src.width);
      if (src.format === 'svg')
        return { src: src.src, thumb: src.src, width: 1200, height, alt, ...(caption && { caption }) };
      const [full, thumb] = await Promise.all([
        getImage({ src, width: 1200, format: 'webp' }),
        getImage({ src, width: 192, format: 'webp' }),
      ]);
      return { src: full.src, thumb: thumb.src, width: 1200, height, alt, ...(caption && { caption }) };
    }),
  );
}
