import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../client';

/** The field errors of a failed mutation, keyed by a normalized field name, and what is left for the form. */
export interface FormErrors {
  fields: Record<string, string>;
  form: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, form: null };

/** `project_id`, `projectId`, `input.projectId` all name the same field: compare them lowercased, bare. */
export const fieldKey = (name: string): string =>
  (name.split('.').pop() ?? name).replace(/[_-]/g, '').toLowerCase();

/**
 * Splits an error into the messages of the form's own fields (the API's `extensions.fields`),
 * shown by each field, and the rest, shown at the top of the form. `known` lists the form's
 * field names; a problem with any other field stays in the form-level message.
 */
export function formErrors(e: unknown, known: readonly string[]): FormErrors {
  const keys = new Set(known.map(fieldKey));
  if (e instanceof ApiError && e.fields.length) {
    const fields: Record<string, string> = {};
    const rest: string[] = [];
    for (const f of e.fields) {
      const k = fieldKey(f.field);
      if (keys.has(k)) fields[k] = fields[k] ? `${fields[k]}; ${f.message}` : f.message;
      else rest.push(`${f.field}: ${f.message}`);
    }
    return { fields, form: rest.length ? rest.join('; ') : null };
  }
  return { fields: {}, form: e instanceof Error ? e.message : String(e) };
}

let seq = 0;

/** A labelled text input (or textarea) with its hint and its error, the error tied to it by aria-describedby. */
export function TextField({
  label,
  value,
  onInput,
  error,
  hint,
  required = false,
  multiline = false,
}: {
  label: string;
  value: string;
  onInput: (v: string) => void;
  error?: string | null;
  hint?: ComponentChildren;
  required?: boolean;
  multiline?: boolean;
}) {
  const [id] = useState(() => `f${++seq}`);
  const described =
    [error ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described,
    'aria-required': required || undefined,
  };
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onInput={(e) => onInput(e.currentTarget.value)} />
      ) : (
        <input {...common} type="text" onInput={(e) => onInput(e.currentTarget.value)} />
      )}
      {hint && (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-err`} class="error field-error">
          {error}
        </span>
      )}
    </div>
  );
}
