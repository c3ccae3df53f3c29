import { graphql } from '../gql';
import { useQuery } from '../hooks';
import { formatBytes } from './Fields';

const PreviewQuery = graphql(`
  query FilePreview($file: ID!) {
    filePreview(file: $file) {
      fileId
      filename
      kind
      size
      text
      bytesRead
      truncated
      imagePath
      reason
      structure {
        nodes {
          path
          kind
          shape
          dtype
          attributes
        }
        truncated
        ingestor
      }
    }
  }
`);

/** Rows shown of a CSV/TSV preview. */
const MAX_ROWS = 50;
/** Columns shown of a CSV/TSV preview. */
const MAX_COLUMNS = 30;
/** Nodes listed of an HDF5 structure. */
const MAX_NODES = 500;

/** The rows of delimited text (quotes as RFC 4180 has them); a last line cut by the preview's end is dropped. */
export function parseDelimited(text: string, sep: string, cut: boolean): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length && rows.length <= MAX_ROWS; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (!cut && (cell !== '' || row.length > 0) && rows.length <= MAX_ROWS) rows.push([...row, cell]);
  return rows.slice(0, MAX_ROWS + 1);
}

/** A node's shape as the page shows it: `(16 × 4)`, `scalar`, or nothing for a group. */
export function shapeText(kind: string, shape: readonly number[] | null | undefined): string {
  if (kind !== 'dataset') return '';
  return shape && shape.length ? `(${shape.join(' × ')})` : 'scalar';
}

/** A node's attributes in one line: `units = "counts", version = 3`. */
function attributesText(attributes: Record<string, unknown>): string {
  return Object.entries(attributes)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ');
}

function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

/**
 * The preview of one file (`filePreview`): the first rows of a CSV/TSV as a table, the first
 * bytes of text, JSON pretty-printed (as read when cut short), an image from its address, and an
 * HDF5 file's own groups, datasets and attributes as its last ingestion recorded them (or why
 * there are none yet).
 */
export function FilePreview({ fileId, onClose }: { fileId: string; onClose: () => void }) {
  const q = useQuery(PreviewQuery, { file: fileId });
  const p = q.data?.filePreview;
  const headingId = `preview-${fileId}`;
  const readNote =
    p?.truncated && p.bytesRead ? (
      <p class="note">
        The first {formatBytes(p.bytesRead)} of {formatBytes(p.size)}.
      </p>
    ) : null;
  let body = null;
  if (p) {
    if (p.kind === 'csv' || p.kind === 'tsv') {
      const rows = parseDelimited(p.text ?? '', p.kind === 'csv' ? ',' : '\t', p.truncated);
      const [head = [], ...rest] = rows;
      const width = Math.min(MAX_COLUMNS, Math.max(head.length, ...rest.map((r) => r.length)));
      const cols = Array.from({ length: width }, (_, i) => i);
      body = (
        <>
          <div class="table-scroll" tabIndex={0} role="region" aria-label={`The first rows of ${p.filename}`}>
            <table class="preview-table">
              <caption>
                The first {rest.length} rows of {p.filename}
              </caption>
              <thead>
                <tr>
                  {cols.map((i) => (
                    <th scope="col" key={i}>
                      {head[i] ?? ''}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rest.map((r, n) => (
                  <tr key={n}>
                    {cols.map((i) => (
                      <td key={i}>{r[i] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {readNote}
        </>
      );
    } else if (p.kind === 'json' || p.kind === 'text') {
      const shown = (p.kind === 'json' && !p.truncated && prettyJson(p.text ?? '')) || (p.text ?? '');
      body = (
        <>
          <pre class="preview-text" tabIndex={0} aria-label={`The text of ${p.filename}`}>
            {shown}
          </pre>
          {readNote}
        </>
      );
    } else if (p.kind === 'image' && p.imagePath) {
      body = <img class="preview-image" src={p.imagePath} alt={p.filename} />;
    } else if (p.kind === 'hdf5') {
      const nodes = p.structure?.nodes ?? [];
      const shown = nodes.slice(0, MAX_NODES);
      body = p.structure ? (
        <>
          <div class="table-scroll" tabIndex={0} role="region" aria-label={`The structure of ${p.filename}`}>
            <table class="preview-table">
              <caption>Groups and datasets of {p.filename}</caption>
              <thead>
                <tr>
                  <th scope="col">Path</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Shape</th>
                  <th scope="col">Type</th>
                  <th scope="col">Attributes</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((n) => (
                  <tr key={n.path}>
                    <td>
                      <code>{n.path}</code>
                    </td>
                    <td>{n.kind}</td>
                    <td>{shapeText(n.kind, n.shape)}</td>
                    <td>{n.dtype ?? ''}</td>
                    <td>{attributesText(n.attributes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {(p.structure.truncated || nodes.length > shown.length) && (
            <p class="note">
              {nodes.length > shown.length
                ? `The first ${shown.length} of ${nodes.length} nodes recorded. `
                : ''}
              {p.structure.truncated ? 'The recorded structure was cut at the service limits.' : ''}
            </p>
          )}
        </>
      ) : (
        <p>No structure: {p.reason ?? 'not ingested yet'}.</p>
      );
    } else {
      body = <p>No preview: {p.reason ?? 'nothing to show'}.</p>;
    }
  }
  return (
    <section class="file-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>Preview of {p?.filename ?? 'the file'}</h3>
      {q.loading && <p role="status">Reading…</p>}
      {q.error && (
        <p role="alert" class="error">
          {q.error}
        </p>
      )}
      {body}
      <button type="button" class="small" onClick={onClose}>
        Close the preview
      </button>
    </section>
  );
}
