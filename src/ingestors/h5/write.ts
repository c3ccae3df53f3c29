import { H5Session } from './session';

/** A group of an HDF5 file to write: attributes, datasets and subgroups. */
export interface H5GroupSpec {
  attrs?: Record<string, string | number | number[]>;
  datasets?: Record<
    string,
    {
      data: ArrayLike<number>;
      shape?: number[];
      dtype?: string;
      attrs?: Record<string, string | number | number[]>;
    }
  >;
  groups?: Record<string, H5GroupSpec>;
}

/** Writes a file from a spec (runs in the HDF5 thread; self-contained, see {@link H5Session}). */
export function h5WriteFile(
  h5: unknown,
  _state: Record<string, unknown>,
  input: { path: string; root: H5GroupSpec },
): number {
  interface W {
    create_attribute(name: string, value: unknown): void;
    create_group(name: string): W;
    create_dataset(args: { name: string; data: unknown; shape?: number[]; dtype?: string }): W;
  }
  const lib = h5 as { File: new (path: string, mode: string) => W & { close(): void } };
  const file = new lib.File(input.path, 'w');
  const fill = (target: W, spec: H5GroupSpec) => {
    for (const [name, value] of Object.entries(spec.attrs ?? {})) target.create_attribute(name, value);
    for (const [name, d] of Object.entries(spec.datasets ?? {})) {
      const ds = target.create_dataset({ name, data: d.data, shape: d.shape, dtype: d.dtype });
      for (const [a, value] of Object.entries(d.attrs ?? {})) ds.create_attribute(a, value);
    }
    // groups are created one level at a time
    for (const [name, g] of Object.entries(spec.groups ?? {})) fill(target.create_group(name), g);
  };
  fill(file, input.root);
  file.close();
  return 0;
}

/** Writes an HDF5 file (tests and benchmarks generate their fixtures with it). */
export async function writeH5(path: string, root: H5GroupSpec): Promise<void> {
  const session = new H5Session();
  try {
    await session.call('h5WriteFile', h5WriteFile, { path, root });
  } finally {
    await session.close();
  }
}
