import { StringDecoder } from 'node:string_decoder';
import type { Extraction, Ingestor } from './ingestor';
import { linePlot } from './render';

const EXTENSIONS: Record<string, string | null> = { csv: null, tsv: '\t', tab: '\t' };
const MAX_COLUMNS = 1000;
const PLOTTED = 5;
const KEPT_ROWS = 4000;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The most frequent of `, ; \t |` in the first non-comment line of `text` (`,` by default). */
export function sniffDelimiter(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() && !l.startsWith('#')) ?? '';
  let best = ',';
  let count = 0;
  for (const d of [',', ';', '\t', '|']) {
    const n = line.split(d).length - 1;
    if (n > count) [best, count] = [d, n];
  }
  return best;
}

/** Splits delimited text into records (RFC 4180 quoting), fed chunk by chunk. */
class RecordParser {
  private field = '';
  private record: string[] = [];
  private quoted = false;
  private afterQuote = false;
  private pendingCR = false;

  constructor(
    private readonly delimiter: string,
    private readonly onRecord: (fields: string[]) => void,
  ) {}

  push(text: string): void {
    for (const c of text) {
      if (this.pendingCR) {
        this.pendingCR = false;
        if (c === '\n') continue;
      }
      if (this.quoted) {
        if (c === '"') {
          this.quoted = false;
          this.afterQuote = true;
        } else this.field += c;
        continue;
      }
      if (c === '"') {
        // a doubled quote inside a quoted field, or the opening quote of a field
        if (this.afterQuote) this.field += '"';
        this.quoted = true;
        this.afterQuote = false;
        continue;
      }
      this.afterQuote = false;
      if (c === this.delimiter) this.endField();
      else if (c === '\n' || c === '\r') {
        this.pendingCR = c === '\r';
        this.endRecord();
      } else this.field += c;
    }
  }

  end(): void {
    if (this.field !== '' || this.record.length) this.endRecord();
  }

  private endField(): void {
    if (this.record.length < MAX_COLUMNS) this.record.push(this.field);
    this.field = '';
  }

  private endRecord(): void {
    this.endField();
    const record = this.record;
    this.record = [];
    this.onRecord(record);
  }
}

interface Column {
  name: string;
  numeric: number;
  text: number;
  min: number;
  max: number;
}

/** Row count, per-column numeric ranges and an evenly thinned sample of rows for the plot. */
class TableStats {
  header: string[] | null = null;
  /** whether the first row named the columns */
  named = false;
  columns: Column[] = [];
  rows = 0;
  private kept: number[][] = [];
  private stride = 1;

  add(fields: string[]): void {
    if (fields.length === 1 && fields[0].trim() === '') return;
    if (!this.header) {
      if (this.rows === 0 && fields[0].startsWith('#')) return;
      this.named = fields.some((f) => f.trim() !== '' && !NUMBER.test(f.trim()));
      this.header = fields.map((f, i) => (this.named && f.trim()) || `column_${i + 1}`);
      this.columns = this.header.map((name) => ({
        name,
        numeric: 0,
        text: 0,
        min: Infinity,
        max: -Infinity,
      }));
      if (this.named) return;
    }
    const values = fields.map((f) => (NUMBER.test(f.trim()) ? Number(f) : NaN));
    values.forEach((v, i) => {
      const col = this.columns[i] as Column | undefined; // a row may have more fields than the header
      if (!col) return;
      if (Number.isFinite(v)) {
        col.numeric++;
        if (v < col.min) col.min = v;
        if (v > col.max) col.max = v;
      } else if (fields[i].trim() !== '') col.text++;
    });
    if (this.rows % this.stride === 0) {
      this.kept.push(values.slice(0, PLOTTED + 1));
      if (this.kept.length >= KEPT_ROWS) {
        this.kept = this.kept.filter((_, i) => i % 2 === 0);
        this.stride *= 2;
      }
    }
    this.rows++;
  }

  /** Numeric columns: every non-empty value a number. */
  numericIndices(): number[] {
    return this.columns.flatMap((c, i) => (c.numeric > 0 && c.text === 0 ? [i] : []));
  }

  async plot(): Promise<Buffer | null> {
    const numeric = this.numericIndices().filter((i) => i <= PLOTTED);
    if (!numeric.length || this.kept.length < 2) return null;
    const column = (i: number) => this.kept.map((r) => r[i] ?? NaN);
    const first = column(0);
    const xIsAxis =
      numeric[0] === 0 && numeric.length > 1 && first.every((v, i) => i === 0 || v >= first[i - 1]);
    const ys = (xIsAxis ? numeric.slice(1) : numeric).map((i) => ({
      name: this.columns[i].name,
      values: column(i),
    }));
    return linePlot(ys, xIsAxis ? first : null);
  }
}

/**
 * CSV and TSV files, read as a stream: column names (a first row that is not all numbers is
 * the header), row count, the range of each numeric column, and a line plot of the numeric
 * columns (against the first column when it is an increasing axis) as the thumbnail.
 */
export const delimitedIngestor: Ingestor = {
  name: 'DelimitedTextIngestor',
  description: 'CSV and TSV tables: columns, row count, numeric ranges and a line plot.',

  supports(source) {
    return Promise.resolve(source.extension in EXTENSIONS);
  },

  async extract(source): Promise<Extraction> {
    const head = (await source.head()).toString('utf8');
    if (head.includes('\u0000')) throw new Error('not a text file (it contains NUL bytes)');
    const delimiter = EXTENSIONS[source.extension] ?? sniffDelimiter(head);
    const stats = new TableStats();
    const parser = new RecordParser(delimiter, (r) => {
      stats.add(r);
    });
    const decoder = new StringDecoder('utf8');
    for await (const chunk of (await source.stream()) as AsyncIterable<Buffer>)
      parser.push(decoder.write(chunk));
    parser.push(decoder.end());
    parser.end();
    const ranges: Record<string, { min: number; max: number }> = {};
    for (const i of stats.numericIndices())
      ranges[stats.columns[i].name] = { min: stats.columns[i].min, max: stats.columns[i].max };
    const plot = await stats.plot();
    return {
      fields: { dataFormat: source.extension },
      metadata: {
        table: {
          delimiter,
          header: stats.named,
          columns: stats.columns.map((c) => c.name),
          column_count: stats.columns.length,
          row_count: stats.rows,
          ranges,
        },
      },
      thumbnails: plot ? [{ name: source.filename, image: plot }] : [],
    };
  },
};
