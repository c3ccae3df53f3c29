import sharp from 'sharp';
import { parse as parseExif } from 'exifr';
import { startsWith, type Extraction, type Ingestor, type Source } from './ingestor';
import { THUMBNAIL_EDGE } from './render';
import { thumbnailJpeg } from '../modules/thumbnail/thumbnail-image';

const EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'webp', 'gif']);
/** smaller files are read into memory; larger ones are spooled and read from disk */
const IN_MEMORY = 32 * 1024 * 1024;
export const MAX_PIXELS = 268_402_689;

/** PNG, JPEG, GIF or WebP by their magic numbers. */
function looksLikeImage(head: Buffer): boolean {
  return (
    startsWith(head, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(head, [0xff, 0xd8, 0xff]) ||
    startsWith(head, 'GIF8') ||
    (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8))
  );
}

/** The image as sharp should read it: in memory when small, else from a spooled file. */
export async function imageInput(source: Source): Promise<Buffer | string> {
  return source.size <= IN_MEMORY ? source.bytes(IN_MEMORY) : source.path();
}

/** EXIF (with GPS and IPTC/XMP where present), or null; a damaged EXIF block is not an error. */
export async function readExif(input: Buffer | string): Promise<Record<string, unknown> | null> {
  try {
    const exif = (await parseExif(input, {
      tiff: true,
      exif: true,
      gps: true,
      iptc: true,
      xmp: true,
      ihdr: false,
    })) as Record<string, unknown> | undefined;
    return exif && Object.keys(exif).length ? exif : null;
  } catch {
    return null;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The EXIF capture time as ISO 8601 without a zone (EXIF dates carry none; exifr reads them as
 * local times, so they are formatted back from local fields).
 */
export function exifTimestamp(exif: Record<string, unknown> | null): string | undefined {
  const value = exif?.DateTimeOriginal ?? exif?.CreateDate ?? exif?.ModifyDate;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
  const date = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  return `${date}T${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`;
}

/**
 * PNG, JPEG, WebP and GIF (by extension, or by magic number when the name has no known
 * extension): dimensions and colour information, EXIF where present, and the image itself,
 * downsized, as the thumbnail. Measurement and data type `Image` (as the legacy worker did).
 */
export const imageIngestor: Ingestor = {
  name: 'ImageIngestor',
  description: 'PNG, JPEG, WebP and GIF images: dimensions, colour, EXIF and a thumbnail.',

  async supports(source) {
    return EXTENSIONS.has(source.extension) || looksLikeImage(await source.head());
  },

  async extract(source): Promise<Extraction> {
    const input = await imageInput(source);
    let meta: sharp.Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    } catch (err) {
      throw new Error(`not an image this service can read (${(err as Error).message})`);
    }
    // decoded once, straight to the stored thumbnail JPEG
    const thumbnail = await thumbnailJpeg(input, THUMBNAIL_EDGE, MAX_PIXELS).catch((err: unknown) => {
      throw new Error(`the image could not be decoded (${(err as Error).message})`);
    });
    const exif = await readExif(input);
    const image: Record<string, unknown> = {
      format: meta.format,
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      channels: meta.channels,
      color_space: meta.space,
      bit_depth: meta.bitsPerSample ?? meta.depth,
      has_alpha: meta.hasAlpha,
      is_palette: meta.isPalette,
      is_progressive: meta.isProgressive,
      pages: meta.pages,
      density_dpi: meta.density,
      orientation: meta.orientation,
      has_icc_profile: meta.hasProfile,
    };
    const timestamp = exifTimestamp(exif);
    return {
      fields: { measurement: 'Image', dataType: 'Image', ...(timestamp ? { timestamp } : {}) },
      metadata: { image, ...(exif ? { exif } : {}) },
      thumbnails: [{ name: source.filename, image: thumbnail, stored: true }],
      keywords: ['Image'],
    };
  },
};
