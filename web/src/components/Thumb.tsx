import { useRef } from 'preact/hooks';

interface ThumbnailData {
  /** the image's address on the service (GET with the session; ETag, so the browser keeps it) */
  url: string;
  thumbnailName: string;
}

export const thumbSrc = (t: ThumbnailData): string => t.url;

/** A thumbnail; with `zoom`, a button that opens it full size in a dialog (Escape closes it). */
export function Thumb({ t, size, zoom = false }: { t: ThumbnailData; size: number; zoom?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const img = <img src={thumbSrc(t)} alt={t.thumbnailName} width={size} height={size} class="thumb" />;
  if (!zoom) return img;
  return (
    <>
      <button
        type="button"
        class="thumbbutton"
        aria-label={`Show ${t.thumbnailName} full size`}
        onClick={() => dialog.current?.showModal()}
      >
        {img}
      </button>
      <dialog ref={dialog} class="fullsize" aria-label={t.thumbnailName}>
        <img src={thumbSrc(t)} alt={t.thumbnailName} />
        <form method="dialog">
          <button type="submit">Close</button>
        </form>
      </dialog>
    </>
  );
}
