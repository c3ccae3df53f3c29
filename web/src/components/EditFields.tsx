import { useState } from 'preact/hooks';
import { useAction } from '../hooks';

/** One editable text field: the input's key in the update mutation and its label. */
export type FieldSpec<K extends string> = readonly [key: K, label: string];

export type Changes<K extends string> = Partial<Record<K, string>> & { public?: boolean };

/**
 * "Edit fields": a form over a record's updatable text fields (and its public flag when
 * `publicValue` is given). Only the changed fields go to `save`; nothing changed, nothing is sent.
 * Used by the dataset, sample, project and instrument pages, each with its own update mutation.
 */
export function EditFields<K extends string>({
  fields,
  values,
  publicValue,
  save,
  onDone,
}: {
  fields: readonly FieldSpec<K>[];
  values: Partial<Record<K, string | null | undefined>>;
  publicValue?: boolean;
  save: (changes: Changes<K>) => Promise<unknown>;
  onDone: (changes: Changes<K>) => void;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Partial<Record<K, string | null | undefined>>>(values);
  const [isPublic, setPublic] = useState(publicValue ?? false);
  const action = useAction();
  if (!open)
    return (
      <button
        type="button"
        onClick={() => {
          setDraft(values);
          setPublic(publicValue ?? false);
          setOpen(true);
        }}
      >
        Edit fields
      </button>
    );
  const submit = async (e: Event) => {
    e.preventDefault();
    const changes: Changes<K> = {};
    for (const [key] of fields)
      if ((draft[key] ?? '') !== (values[key] ?? '')) (changes as Record<K, string>)[key] = draft[key] ?? '';
    if (publicValue !== undefined && isPublic !== publicValue) changes.public = isPublic;
    if (Object.keys(changes).length === 0) {
      setOpen(false);
      return;
    }
    const done = await action.run(() => save(changes));
    if (done !== undefined) {
      setOpen(false);
      onDone(changes);
    }
  };
  return (
    <form class="edit" onSubmit={(e) => void submit(e)} aria-label="Edit fields">
      {fields.map(([key, label]) => (
        <label key={key}>
          {label}
          <input
            value={draft[key] ?? ''}
            onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
          />
        </label>
      ))}
      {publicValue !== undefined && (
        <label class="check">
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
          Public
        </label>
      )}
      <div class="buttons">
        <button type="submit" disabled={action.pending}>
          Save
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
    </form>
  );
}
