import { useState } from 'preact/hooks';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Whether a key path or a leaf value contains the search text (any case). */
function matches(path: string, value: unknown, needle: string): boolean {
  if (!needle) return true;
  if (path.toLowerCase().includes(needle)) return true;
  if (isObject(value)) return Object.entries(value).some(([k, v]) => matches(`${path}.${k}`, v, needle));
  return String(value).toLowerCase().includes(needle);
}

function Node({
  name,
  path,
  value,
  needle,
  depth,
}: {
  name: string;
  path: string;
  value: unknown;
  needle: string;
  depth: number;
}) {
  if (!isObject(value)) {
    return (
      <li>
        <span class="mkey">{name}</span>: <span class={`mval ${typeof value}`}>{JSON.stringify(value)}</span>
      </li>
    );
  }
  const entries = Object.entries(value).filter(
    ([k, v]) => matches(`${path}.${k}`, v, needle) || path.toLowerCase().includes(needle),
  );
  return (
    <li>
      <details open={depth < 1 || needle !== ''}>
        <summary>
          <span class="mkey">{name}</span>{' '}
          <span class="hint">
            ({Array.isArray(value) ? `${value.length} items` : `${Object.keys(value).length} fields`})
          </span>
        </summary>
        <ul>
          {entries.map(([k, v]) => (
            <Node key={k} name={k} path={`${path}.${k}`} value={v} needle={needle} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

/** Scientific metadata as a collapsible tree, filtered by a search over key paths and values. */
export function MetadataTree({ metadata }: { metadata: unknown }) {
  const [needle, setNeedle] = useState('');
  if (!isObject(metadata) || Object.keys(metadata).length === 0) return <p>No scientific metadata.</p>;
  const n = needle.trim().toLowerCase();
  const entries = Object.entries(metadata).filter(([k, v]) => matches(k, v, n));
  return (
    <div class="metadata">
      <label>
        Search the metadata{' '}
        <input type="search" value={needle} onInput={(e) => setNeedle(e.currentTarget.value)} />
      </label>
      <ul class="tree">
        {entries.map(([k, v]) => (
          <Node key={k} name={k} path={k} value={v} needle={n} depth={0} />
        ))}
      </ul>
      {entries.length === 0 && <p role="status">Nothing in the metadata matches “{needle}”.</p>}
    </div>
  );
}
