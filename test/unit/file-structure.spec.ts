import {
  boundStructure,
  STRUCTURE_MAX_BYTES,
  STRUCTURE_MAX_NODES,
  type StructureTreeNode,
} from '../../src/modules/file/file-structure';

/** The stored form of a file's structure: its node and size limits, and JSON-safe attribute values. */
const dataset = (attrs: Record<string, unknown> = {}): StructureTreeNode => ({
  kind: 'dataset',
  attrs,
  shape: [2],
  dtype: 'float64',
});

test('a small tree is kept whole, in tree order', () => {
  const s = boundStructure({
    format: 'hdf5',
    truncated: false,
    root: {
      kind: 'group',
      attrs: { a: 1 },
      children: { g: { kind: 'group', attrs: {}, children: { d: dataset() } }, e: dataset() },
    },
  });
  expect(s).toEqual({
    format: 'hdf5',
    truncated: false,
    nodes: [
      { path: '/', kind: 'group', attributes: { a: 1 } },
      { path: '/g', kind: 'group', attributes: {} },
      { path: '/g/d', kind: 'dataset', shape: [2], dtype: 'float64', attributes: {} },
      { path: '/e', kind: 'dataset', shape: [2], dtype: 'float64', attributes: {} },
    ],
  });
});

test(`at most ${STRUCTURE_MAX_NODES} nodes`, () => {
  const children: Record<string, StructureTreeNode> = {};
  for (let i = 0; i < STRUCTURE_MAX_NODES + 500; i++) children[`d${i}`] = dataset();
  const s = boundStructure({
    format: 'hdf5',
    truncated: false,
    root: { kind: 'group', attrs: {}, children },
  });
  expect(s.nodes).toHaveLength(STRUCTURE_MAX_NODES);
  expect(s.truncated).toBe(true);
});

test(`at most ${STRUCTURE_MAX_BYTES} bytes of JSON`, () => {
  const children: Record<string, StructureTreeNode> = {};
  for (let i = 0; i < 1000; i++) children[`d${i}`] = dataset({ note: 'n'.repeat(900) });
  const s = boundStructure({
    format: 'hdf5',
    truncated: false,
    root: { kind: 'group', attrs: {}, children },
  });
  expect(s.truncated).toBe(true);
  expect(s.nodes.length).toBeLessThan(1000);
  expect(Buffer.byteLength(JSON.stringify(s.nodes))).toBeLessThanOrEqual(STRUCTURE_MAX_BYTES);
});

test("the reader's own cut is kept; odd attribute values are made JSON", () => {
  const s = boundStructure({
    format: 'hdf5',
    truncated: true,
    root: {
      kind: 'group',
      attrs: { big: 2n ** 70n, small: 5n, nan: Number.NaN, nul: 'a\u0000b', arr: new Int16Array([1, 2]) },
    },
  });
  expect(s.truncated).toBe(true);
  expect(s.nodes[0].attributes).toEqual({
    big: (2n ** 70n).toString(),
    small: 5,
    nan: null,
    nul: 'ab',
    arr: [1, 2],
  });
});
