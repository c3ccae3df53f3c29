const FULL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * A moment as the reader reads dates (their locale and time zone, Intl.DateTimeFormat), the exact
 * ISO text kept in `datetime` and shown on hover (`title`). Text that is not a date is shown as is.
 */
export function When({ iso, day = false }: { iso: string | null | undefined; day?: boolean }) {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <>{iso}</>;
  return (
    <time dateTime={iso} title={iso}>
      {(day ? DAY : FULL).format(d)}
    </time>
  );
}
