import sharp from 'sharp';

/** Generated thumbnails fit this box (stored thumbnails are JPEG, at most 1024 px a side). */
export const THUMBNAIL_EDGE = 512;
const PLOT_WIDTH = 480;
const PLOT_HEIGHT = 320;
const PLOT_POINTS = 1000;
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];

export interface Series {
  name: string;
  values: ArrayLike<number>;
}

function finiteRange(values: ArrayLike<number>): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : null;
}

/** Every k-th index, so that at most `points` remain. */
function strideIndices(length: number, points: number): number[] {
  const step = Math.max(1, Math.ceil(length / points));
  const out: number[] = [];
  for (let i = 0; i < length; i += step) out.push(i);
  return out;
}

/**
 * A line plot of one or more series against `x` (or the row index) as a PNG, drawn as SVG and
 * rendered by sharp: no axes text, so no fonts are needed. Null when nothing is finite.
 */
export async function linePlot(series: Series[], x: ArrayLike<number> | null = null): Promise<Buffer | null> {
  const length = Math.min(...series.map((s) => s.values.length), x ? x.length : Infinity);
  if (!series.length || !Number.isFinite(length) || length < 2) return null;
  const idx = strideIndices(length, PLOT_POINTS);
  const xs = idx.map((i) => (x ? x[i] : i));
  const xr = finiteRange(xs);
  const yr = finiteRange(series.flatMap((s) => idx.map((i) => s.values[i])));
  if (!xr || !yr) return null;
  const pad = 16;
  const sx = (v: number) => pad + ((v - xr[0]) / (xr[1] - xr[0] || 1)) * (PLOT_WIDTH - 2 * pad);
  const sy = (v: number) =>
    PLOT_HEIGHT - pad - ((v - yr[0]) / (yr[1] - yr[0] || 1)) * (PLOT_HEIGHT - 2 * pad);
  const lines = series.slice(0, COLOURS.length).map((s, n) => {
    const points = idx
      .map((i, k) => [xs[k], s.values[i]])
      .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b))
      .map(([a, b]) => `${sx(a).toFixed(1)},${sy(b).toFixed(1)}`)
      .join(' ');
    return `<polyline fill="none" stroke="${COLOURS[n]}" stroke-width="1.5" points="${points}"/>`;
  });
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PLOT_WIDTH}" height="${PLOT_HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<rect x="${pad}" y="${pad}" width="${PLOT_WIDTH - 2 * pad}" height="${PLOT_HEIGHT - 2 * pad}" fill="none" stroke="#888888"/>` +
    `${lines.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * A 2-D array of numbers (row-major, `height` × `width`, any numeric type) as a greyscale PNG:
 * the finite values are stretched from their minimum to their maximum; the rest are black.
 */
export async function greyImage(
  values: ArrayLike<number>,
  width: number,
  height: number,
): Promise<Buffer | null> {
  if (width < 1 || height < 1 || values.length < width * height) return null;
  const range = finiteRange(values);
  if (!range) return null;
  const [min, max] = range;
  const scale = max > min ? 255 / (max - min) : 0;
  const pixels = Buffer.alloc(width * height);
  for (let i = 0; i < pixels.length; i++) {
    const v = values[i];
    pixels[i] = Number.isFinite(v) ? Math.round((v - min) * scale) : 0;
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
}
