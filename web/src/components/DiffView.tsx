import { diffJson, showValue } from './json-diff';

/** A metadata diff as a list: added (+), removed (−) and changed (before → after) paths. */
export function DiffView({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const { lines, more } = diffJson(before, after);
  if (!lines.length) return <p class="diff-none">No change to the metadata.</p>;
  return (
    <ul class="diff" aria-label={label}>
      {lines.map((l) => (
        <li key={l.path} class={`diff-${l.kind}`}>
          <span class="diff-sign" aria-hidden="true">
            {l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : '~'}
          </span>
          <code>{l.path}</code> {l.kind === 'added' && <>added: {showValue(l.after)}</>}
          {l.kind === 'removed' && <>removed (was {showValue(l.before)})</>}
          {l.kind === 'changed' && (
            <>
              {showValue(l.before)} → {showValue(l.after)}
            </>
          )}
        </li>
      ))}
      {more > 0 && <li>… and {more} more</li>}
    </ul>
  );
}
