import sharp from 'sharp';
import { validationError } from '../../core/errors';

/** Thumbnails are previews: larger images are scaled down to fit this box. */
export const MAX_EDGE = 1024;
const MAX_INPUT_PIXELS = 100_000_000;

/** Decodes base64 image data (a `data:` URL prefix is accepted); `field` names it in errors. */
export function decodeBase64Image(raw: unknown, field = 'thumbnail_b64str'): Buffer {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw validationError(field, 'is required: base64 image data');
  const text = raw
    .trim()
    .replace(/^data:[\w/+.-]+;base64,/, '')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw validationError(field, 'is not valid base64');
  return Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
}

/**
 * How thumbnails are encoded: JPEG quality 85, progressive, optimised Huffman tables. (mozjpeg
 * made files about 10% smaller at three times the encoding time — 17.6 against 5.9 ms for a
 * 512-pixel thumbnail on this machine — which made it most of the cost of ingesting an image.)
 */
const JPEG_OPTIONS = { quality: 85, progressive: true, optimiseCoding: true } as const;

/**
 * Any image sharp reads (PNG, JPEG, WebP, GIF, TIFF, AVIF, SVG...) as a thumbnail JPEG in one
 * pass: oriented by its EXIF tag, at most `maxEdge` pixels on a side, transparency flattened
 * on white. Throws sharp's error for what it cannot read.
 */
export function thumbnailJpeg(
  image: Buffer | string,
  maxEdge: number,
  maxPixels = MAX_INPUT_PIXELS,
): Promise<Buffer> {
  return sharp(image, { limitInputPixels: maxPixels, failOn: 'error' })
    .rotate()
    .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg(JPEG_OPTIONS)
    .toBuffer();
}

/** {@link thumbnailJpeg} at {@link MAX_EDGE}; a 400 naming `field` for what is not an image. */
export async function toJpeg(image: Buffer, field = 'thumbnail_b64str'): Promise<Buffer> {
  try {
    return await thumbnailJpeg(image, MAX_EDGE);
  } catch {
    throw validationError(field, 'is not an image this service can read');
  }
}
