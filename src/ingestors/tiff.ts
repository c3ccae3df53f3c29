import sharp from 'sharp';
import { parse as parseExif } from 'exifr';
import { startsWith, type Extraction, type Ingestor } from './ingestor';
import { exifTimestamp, imageInput, MAX_PIXELS } from './image';
import { THUMBNAIL_EDGE } from './render';

const EXTENSIONS = new Set(['tif', 'tiff']);
/** tags that only locate pixel data (long offset tables), and FEI's bulky private block */
const SKIPPED_TAGS = new Set([
  'StripOffsets',
  'StripByteCounts',
  'TileOffsets',
  'TileByteCounts',
  'JPEGTables',
  'FreeOffsets',
  'FreeByteCounts',
  '34682',
]);

type Depth = 'char' | 'uchar' | 'short' | 'ushort' | 'int' | 'uint' | 'float' | 'double';
const ARRAYS: Record<
  Exclude<Depth, 'uchar'>,
  { new (b: ArrayBuffer, o: number, n: number): ArrayLike<number>; BYTES_PER_ELEMENT: number }
> = {
  char: Int8Array,
  short: Int16Array,
  ushort: Uint16Array,
  int: Int32Array,
  uint: Uint32Array,
  float: Float32Array,
  double: Float64Array,
};

function looksLikeTiff(head: Buffer): boolean {
  return (
    startsWith(head, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(head, [0x49, 0x49, 0x2b, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])
  );
}

/** Every tag of the first image directory (and its EXIF and GPS directories), by name. */
async function readTags(input: Buffer | string): Promise<Record<string, Record<string, unknown>>> {
  const parsed = (await parseExif(input, {
    tiff: true,
    ifd0: {},
    exif: true,
    gps: true,
    interop: true,
    xmp: true,
    iptc: true,
    translateKeys: true,
    translateValues: false,
    reviveValues: true,
    sanitize: false,
    mergeOutput: false,
  }).catch((err: unknown) => {
    throw new Error(`not a readable TIFF file (${(err as Error).message})`);
  })) as Record<string, unknown> | undefined;
  if (!parsed?.ifd0) throw new Error('not a readable TIFF file (no image directory)');
  const out: Record<string, Record<string, unknown>> = {};
  for (const [block, tags] of Object.entries(parsed)) {
    if (block === 'errors' || typeof tags !== 'object' || tags === null) continue;
    out[block] = Object.fromEntries(Object.entries(tags).filter(([k]) => !SKIPPED_TAGS.has(k)));
  }
  return out;
}

/**
 * A thumbnail of any sample format: 8-bit images as they are; 16-bit, 32-bit and floating-point
 * ones (scientific cameras) stretched from their minimum to their maximum, since a plain
 * conversion would show them black or clipped.
 */
async function thumbnail(input: Buffer | string, meta: sharp.Metadata): Promise<Buffer> {
  const base = () =>
    sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).resize({
      width: THUMBNAIL_EDGE,
      height: THUMBNAIL_EDGE,
      fit: 'inside',
      withoutEnlargement: true,
    });
  // sharp types both as always present; an odd TIFF header may still lack them
  const depth = ((meta.depth as string | undefined) ?? 'uchar') as Depth;
  if (depth === 'uchar' || !(depth in ARRAYS)) return base().png().toBuffer();
  const colour = ((meta.channels as number | undefined) ?? 1) >= 3;
  const space = depth === 'ushort' ? (colour ? 'rgb16' : 'grey16') : colour ? 'srgb' : 'b-w';
  const { data, info } = await base()
    .toColourspace(space)
    .raw({ depth })
    .toBuffer({ resolveWithObject: true });
  const Typed = ARRAYS[depth];
  const values = new Typed(data.buffer, data.byteOffset, data.byteLength / Typed.BYTES_PER_ELEMENT);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const scale = max > min ? 255 / (max - min) : 0;
  const pixels = Buffer.alloc(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    pixels[i] = Number.isFinite(v) ? Math.round((v - min) * scale) : 0;
  }
  return sharp(pixels, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png()
    .toBuffer();
}

/**
 * TIFF files: every tag by name (apart from pixel-data offset tables), the EXIF and GPS tags,
 * image dimensions, and a thumbnail normalised for 8-bit, 16-bit and floating-point samples.
 * Measurement `TIFF Image`; timestamp from the DateTime tags.
 */
export const tiffIngestor: Ingestor = {
  name: 'TifIngestor',
  description: 'TIFF images (8/16/32-bit, float): every tag by name and a normalised thumbnail.',

  async supports(source) {
    return EXTENSIONS.has(source.extension) || looksLikeTiff(await source.head());
  },

  async extract(source): Promise<Extraction> {
    const input = await imageInput(source);
    const tags = await readTags(input);
    let meta: sharp.Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    } catch (err) {
      throw new Error(`the TIFF image could not be read (${(err as Error).message})`);
    }
    const image = await thumbnail(input, meta).catch((err: unknown) => {
      throw new Error(`the TIFF image could not be decoded (${(err as Error).message})`);
    });
    const { ifd0, ...others } = tags;
    const timestamp = exifTimestamp({ ...ifd0, ...others.exif });
    return {
      fields: { measurement: 'TIFF Image', dataType: 'TIFF Image', ...(timestamp ? { timestamp } : {}) },
      metadata: {
        tiff: ifd0,
        ...others,
        image: {
          width: meta.width,
          height: meta.height,
          channels: meta.channels,
          sample_format: meta.depth,
          pages: meta.pages ?? 1,
          color_space: meta.space,
        },
      },
      thumbnails: [{ name: source.filename, image }],
      keywords: ['TIFF Image'],
    };
  },
};
