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
 * Any image sharp reads (PNG, JPEG, WebP, GIF, TIFF, AVIF, SVG...) as a JPEG: oriented by its
 * EXIF tag, transparency flattened on white, at most {@link MAX_EDGE} pixels on a side.
 */
export async function toJpeg(image: Buffer, field = 'thumbnail_b64str'): Promise<Buffer> {
  try {
    return await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw validationError(field, 'is not an image this service can read');
  }
}
