import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action behind a confirmation: the button opens a small panel that says what will
 * happen, takes an optional note (when the API keeps one: `withNote`), and runs `onConfirm` only
 * on "Confirm"; "Cancel" or Escape closes it with nothing done. Focus moves into the panel and
 * back to the button when it closes.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  withNote,
  disabled,
  onConfirm,
  children,
}: {
  label: string;
  ariaLabel?: string;
  question: string;
  confirmLabel?: string;
  withNote?: string;
  disabled?: boolean;
  onConfirm: (note: string | null) => Promise<unknown>;
  children?: ComponentChildren;
}) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('textarea, button')?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    setNote('');
    opener.current?.focus();
  };
  if (!open)
    return (
      <button
        ref={opener}
        type="button"
        class="small danger"
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
    );
  return (
    <div
      ref={panel}
      class="confirm"
      role="group"
      aria-label={`Confirm: ${ariaLabel ?? label}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <p>{question}</p>
      {children}
      {withNote && (
        <label>
          {withNote} (optional)
          <textarea rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        </label>
      )}
      <div class="buttons">
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void Promise.resolve(onConfirm(note.trim() || null)).finally(() => {
              setBusy(false);
              setOpen(false);
              setNote('');
            });
          }}
        >
          {confirmLabel ?? `Confirm: ${label.toLowerCase()}`}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}
