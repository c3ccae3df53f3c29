import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LocalSource } from '../../src/ingestors/source';
import { ALL_INGESTORS, detectIngestor, findIngestor, SCAN_ORDER } from '../../src/ingestors/registry';
import { toMetadata } from '../../src/ingestors/sanitize';
import * as fx from '../support/fixtures';

const dirs: string[] = [];
const sources: LocalSource[] = [];

function source(name: string, data: Buffer | string): LocalSource {
  const file = fx.tempFile(name, data);
  dirs.push(path.dirname(file));
  const s = new LocalSource(file);
  sources.push(s);
  return s;
}

afterAll(async () => {
  for (const s of sources) await s.dispose();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function decodes(image: Buffer): Promise<sharp.Metadata> {
  return sharp(image).metadata();
}

describe('ingestor selection (scan order, most specific first)', () => {
  const table: [string, () => Promise<Buffer | string> | Buffer | string, string | null][] = [
    ['raman.h5', () => fx.scopeFoundryH5('spectrum'), 'ScopeFoundryH5Ingestor'],
    ['camera.h5', () => fx.scopeFoundryH5('image'), 'ScopeFoundryH5Ingestor'],
    ['scan.h5', fx.plainH5, 'H5Ingestor'],
    ['scan.nxs', fx.plainH5, 'H5Ingestor'],
    ['no-extension-hdf5', fx.plainH5, 'H5Ingestor'],
    ['frame.tif', fx.tiff16, 'TifIngestor'],
    ['frame.TIFF', fx.tiffFloat, 'TifIngestor'],
    ['photo.png', () => fx.png(), 'ImageIngestor'],
    ['photo.JPG', fx.jpegWithExif, 'ImageIngestor'],
    ['photo.webp', fx.webp, 'ImageIngestor'],
    ['anim.gif', fx.gif, 'ImageIngestor'],
    ['png-without-extension', () => fx.png(), 'ImageIngestor'],
    ['table.csv', () => fx.CSV, 'DelimitedTextIngestor'],
    ['table.tsv', () => fx.TSV, 'DelimitedTextIngestor'],
    ['doc.json', () => fx.JSON_DOC, 'JsonIngestor'],
    ['doc.yaml', () => fx.YAML_DOC, 'YamlIngestor'],
    ['doc.yml', () => fx.YAML_DOC, 'YamlIngestor'],
    ['blob.bin', () => Buffer.from([0, 1, 2, 3, 250, 251, 252, 9, 9, 9]), null],
    ['notes.txt', () => 'plain words', null],
    ['empty', () => Buffer.alloc(0), null],
  ];

  const rows = table.map(([name, make, expected]) => ({ name, make, expected }));
  test.each(rows)('$name → $expected', async ({ name, make, expected }) => {
    const chosen = await detectIngestor(source(name, await make()));
    expect(chosen?.name ?? null).toBe(expected);
  });

  test('the register-only ingestor is never chosen by the scan, only by name', () => {
    expect(SCAN_ORDER.map((i) => i.name)).not.toContain('ApiUploadIngestor');
    expect(ALL_INGESTORS.map((i) => i.name)).toContain('ApiUploadIngestor');
  });

  test('names match case-insensitively, with or without the Ingestor suffix', () => {
    expect(findIngestor('ImageIngestor')?.name).toBe('ImageIngestor');
    expect(findIngestor('imageingestor')?.name).toBe('ImageIngestor');
    expect(findIngestor('scopefoundryh5')?.name).toBe('ScopeFoundryH5Ingestor');
    expect(findIngestor('LammpsIngestor')).toBeUndefined();
  });
});

describe('extraction', () => {
  test('PNG: dimensions, colour, a thumbnail named after the file', async () => {
    const out = await findIngestor('ImageIngestor')!.extract(source('photo.png', await fx.png(64, 48)));
    expect(out.fields).toMatchObject({ measurement: 'Image', dataType: 'Image' });
    expect(out.metadata?.image).toMatchObject({
      format: 'png',
      width: 64,
      height: 48,
      channels: 4,
      has_alpha: true,
    });
    expect(out.thumbnails).toHaveLength(1);
    expect(out.thumbnails![0].name).toBe('photo.png');
    expect((await decodes(out.thumbnails![0].image)).width).toBe(64);
  });

  test('JPEG: EXIF tags and the capture time as the timestamp', async () => {
    const out = await findIngestor('ImageIngestor')!.extract(source('shot.jpg', await fx.jpegWithExif()));
    const meta = toMetadata(out.metadata!) as { exif: Record<string, unknown> };
    expect(meta.exif).toMatchObject({ Make: 'Acme', Model: 'Microscope Cam 1', ExposureTime: 0.01 });
    expect(out.fields?.timestamp).toBe('2024-05-06T07:08:09');
  });

  test('TIFF 16-bit: every tag by name, offsets left out, a stretched thumbnail', async () => {
    const out = await findIngestor('TifIngestor')!.extract(source('frame.tif', fx.tiff16()));
    const meta = toMetadata(out.metadata!) as {
      tiff: Record<string, unknown>;
      image: Record<string, unknown>;
    };
    expect(meta.tiff).toMatchObject({
      ImageWidth: 64,
      ImageHeight: 48,
      BitsPerSample: 16,
      ImageDescription: 'a 16-bit test image',
      Software: 'fixture writer',
    });
    expect(meta.tiff).not.toHaveProperty('StripOffsets');
    expect(meta.image).toMatchObject({ sample_format: 'ushort', width: 64 });
    expect(out.fields).toMatchObject({ measurement: 'TIFF Image', timestamp: '2023-02-03T04:05:06' });
    const { data, info } = await sharp(out.thumbnails![0].image)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(64);
    // stretched from min to max: the darkest column is black, the brightest white
    expect(Math.min(...data)).toBeLessThan(10);
    expect(Math.max(...data)).toBeGreaterThan(245);
  });

  test('TIFF float: normalised for the thumbnail', async () => {
    const out = await findIngestor('TifIngestor')!.extract(source('f.tif', fx.tiffFloat()));
    expect((out.metadata!.image as Record<string, unknown>).sample_format).toBe('float');
    const { data } = await sharp(out.thumbnails![0].image)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.max(...data) - Math.min(...data)).toBeGreaterThan(200);
  });

  test('HDF5: the group/dataset tree with attributes, data format H5, no thumbnail', async () => {
    const out = await findIngestor('H5Ingestor')!.extract(source('scan.h5', await fx.plainH5()));
    expect(out.fields).toEqual({ dataFormat: 'H5' });
    expect(out.metadata).toEqual({
      hdf5: {
        instrument: 'beamline 7',
        version: 3,
        entry: { title: 'scan 12', counts: { units: 'counts', _shape: [16], _dtype: 'float64' } },
      },
    });
    expect(out.thumbnails ?? []).toHaveLength(0);
  });

  test('ScopeFoundry: measurement, timestamp from time_id, a plot of the 1-D spectrum', async () => {
    const out = await findIngestor('ScopeFoundryH5Ingestor')!.extract(
      source('r.h5', await fx.scopeFoundryH5()),
    );
    expect(out.fields).toEqual({
      measurement: 'picam_readout',
      dataType: 'picam_readout',
      dataFormat: 'ScopeFoundryH5',
      timestamp: '2023-11-14T22:13:20Z',
    });
    const tree = out.metadata!.hdf5 as Record<string, any>;
    expect(tree.app).toMatchObject({ name: 'raman_app', settings: { sample: 'S-42' } });
    expect(tree.measurement.picam_readout.exposure_s).toBe(0.5);
    expect(out.keywords).toEqual(['picam_readout', 'raman_app']);
    expect((await decodes(out.thumbnails![0].image)).width).toBe(480);
  });

  test('ScopeFoundry: a 2-D dataset is shown as an image', async () => {
    const out = await findIngestor('ScopeFoundryH5Ingestor')!.extract(
      source('c.h5', await fx.scopeFoundryH5('image')),
    );
    expect(out.fields?.measurement).toBe('toupcam_live');
    const meta = await decodes(out.thumbnails![0].image);
    expect([meta.width, meta.height]).toEqual([80, 60]);
  });

  test('CSV: columns, rows, numeric ranges (quoted fields kept whole), a line plot', async () => {
    const out = await findIngestor('DelimitedTextIngestor')!.extract(source('t.csv', fx.CSV));
    expect(out.metadata).toEqual({
      table: {
        delimiter: ',',
        header: true,
        columns: ['time_s', 'voltage_V', 'current_A', 'label'],
        column_count: 4,
        row_count: 50,
        ranges: {
          time_s: { min: 0, max: expect.closeTo(4.9, 6) },
          voltage_V: { min: expect.any(Number), max: expect.any(Number) },
          current_A: { min: 0, max: 0.49 },
        },
      },
    });
    expect(out.fields).toEqual({ dataFormat: 'csv' });
    expect((await decodes(out.thumbnails![0].image)).format).toBe('png');
  });

  test('TSV without a header row', async () => {
    const out = await findIngestor('DelimitedTextIngestor')!.extract(source('t.tsv', '1\t2\n3\t4\n'));
    expect(out.metadata!.table).toMatchObject({
      delimiter: '\t',
      header: false,
      columns: ['column_1', 'column_2'],
      row_count: 2,
    });
  });

  test('JSON and YAML: the document becomes metadata; other roots go under data', async () => {
    const json = await findIngestor('JsonIngestor')!.extract(source('d.json', fx.JSON_DOC));
    expect(json.metadata).toEqual(JSON.parse(fx.JSON_DOC));
    const list = await findIngestor('JsonIngestor')!.extract(source('l.json', '[1,2]'));
    expect(list.metadata).toEqual({ data: [1, 2] });
    const yaml = await findIngestor('YamlIngestor')!.extract(source('d.yaml', fx.YAML_DOC));
    expect(yaml.metadata).toEqual({ operator: 'Ada', settings: { gain: 2.5, mode: 'fast' }, run: 7 });
  });

  test('damaged files fail with a reason', async () => {
    const cases: [string, string, Buffer | string][] = [
      ['ImageIngestor', 'bad.png', Buffer.from('not really a png')],
      ['TifIngestor', 'bad.tif', Buffer.from('II*\0garbage')],
      ['H5Ingestor', 'bad.h5', Buffer.from('not an hdf5 file'.repeat(64))],
      ['JsonIngestor', 'bad.json', '{"a": '],
      ['YamlIngestor', 'bad.yaml', 'a: [1, 2'],
      ['DelimitedTextIngestor', 'bad.csv', Buffer.from([0, 0, 0, 1])],
    ];
    for (const [name, file, data] of cases) {
      await expect(findIngestor(name)!.extract(source(file, data))).rejects.toThrow(/\w/);
    }
  });

  test('metadata is made JSON-safe', () => {
    expect(
      toMetadata({
        a: NaN,
        b: Infinity,
        c: 10n,
        d: 'x\u0000y',
        'k\u0000': new Uint8Array([104, 105]),
        e: new Float32Array([1.5]),
      }),
    ).toEqual({ a: null, b: null, c: 10, d: 'xy', k: 'hi', e: [1.5] });
  });
});
