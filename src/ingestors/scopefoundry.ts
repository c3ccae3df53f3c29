import type { Extraction, Ingestor, Source } from './ingestor';
import {
  H5_EXTENSIONS,
  hasH5Signature,
  openH5,
  readH5Array,
  treeMetadata,
  treeStructure,
  type OpenH5,
} from './h5/file';
import type { H5DatasetInfo, H5Tree } from './h5/read';
import { greyImage, linePlot } from './render';

/** Names of 1-D datasets that are axes (plotted as x), not signals. */
const AXIS = /(wave|wl|shift|energ|time|freq|axis|^x$|_x$|position)/i;

/** The measurement: the first group under `/measurement`, when the file has the ScopeFoundry layout. */
function measurementOf(tree: H5Tree): string | null {
  const children: Partial<H5Tree['children']> = tree.children;
  const app = children.app;
  const measurement = children.measurement;
  if (app?.kind !== 'group' || measurement?.kind !== 'group') return null;
  const names = Object.entries(measurement.children ?? {}).filter(([, n]) => n.kind === 'group');
  return names.length ? names[0][0] : null;
}

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const plottable = (d: H5DatasetInfo) => d.numeric && d.shape.every((n) => n > 0);

/** A preview of the measurement's data: a 2-D dataset as an image, else a 1-D one as a line plot. */
async function preview(open: OpenH5, measurement: string): Promise<Buffer | null> {
  const own = open.tree.datasets.filter(
    (d) => d.path.startsWith(`/measurement/${measurement}/`) && plottable(d),
  );
  const image =
    own.find((d) => d.shape.length === 2 && d.shape[0] > 1 && d.shape[1] > 1) ??
    own.find((d) => d.shape.length > 2 && d.shape[d.shape.length - 1] > 1 && d.shape[d.shape.length - 2] > 1);
  if (image) {
    const { shape, data } = await readH5Array(open, image.path);
    return greyImage(data, shape[1], shape[0]);
  }
  const lines = own.filter((d) => d.shape.length === 1 && d.shape[0] > 1);
  const signal = lines.find((d) => !AXIS.test(baseName(d.path))) ?? lines.at(0);
  if (!signal) return null;
  const axis = lines.find(
    (d) => d !== signal && d.shape[0] === signal.shape[0] && AXIS.test(baseName(d.path)),
  );
  const y = await readH5Array(open, signal.path);
  const x = axis ? (await readH5Array(open, axis.path)).data : null;
  return linePlot([{ name: baseName(signal.path), values: y.data }], x);
}

/** `time_id` (seconds since the epoch) as ISO 8601. */
function timestampOf(tree: H5Tree): string | undefined {
  const t = Number(tree.attrs.time_id);
  if (!Number.isFinite(t) || t <= 0) return undefined;
  const date = new Date(t * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace(/\.000Z$/, 'Z');
}

async function isScopeFoundry(source: Source): Promise<boolean> {
  if (!H5_EXTENSIONS.has(source.extension) && !(await hasH5Signature(source))) return false;
  try {
    return measurementOf((await openH5(source)).tree) !== null;
  } catch {
    return false;
  }
}

/**
 * HDF5 files written by ScopeFoundry (groups `app` and `measurement/<name>`): the tree as the
 * generic HDF5 ingestor reads it, plus the measurement (its first group), the timestamp (root
 * attribute `time_id`), data format `ScopeFoundryH5`, and a preview of the measurement's data
 * (a 2-D dataset as an image, else a 1-D one plotted against its axis) as the thumbnail.
 */
export const scopeFoundryIngestor: Ingestor = {
  name: 'ScopeFoundryH5Ingestor',
  description: 'ScopeFoundry HDF5 files: measurement, timestamp, attribute tree and a data preview.',

  supports: isScopeFoundry,

  async extract(source): Promise<Extraction> {
    const open = await openH5(source);
    const measurement = measurementOf(open.tree);
    if (!measurement) throw new Error('not a ScopeFoundry file: no app and measurement/<name> groups');
    const timestamp = timestampOf(open.tree);
    const thumbnail = await preview(open, measurement);
    const app = open.tree.children.app.attrs.name;
    return {
      fields: {
        measurement,
        dataType: measurement,
        dataFormat: 'ScopeFoundryH5',
        ...(timestamp ? { timestamp } : {}),
      },
      metadata: { hdf5: treeMetadata(open.tree) },
      structure: treeStructure(open.tree),
      thumbnails: thumbnail ? [{ name: source.filename, image: thumbnail }] : [],
      keywords: [measurement, ...(typeof app === 'string' && app ? [app] : [])],
    };
  },
};
