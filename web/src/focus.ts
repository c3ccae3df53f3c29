import { useEffect, useRef } from 'preact/hooks';

/** The main content's heading (or main itself): where focus goes on a new page and from the skip link. */
export function focusMainHeading(): boolean {
  const main = document.getElementById('main');
  if (!main) return false;
  const h1 = main.querySelector('h1');
  const target = h1 ?? main;
  if (h1 && !h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: false });
  return h1 !== null;
}

/**
 * On a move to another page (a new path; a changed query, as a search does, keeps focus where it
 * is), focus goes to the new page's h1 once it is drawn, so a screen reader announces it and Tab
 * starts from the content, as after a full page load.
 */
export function useFocusOnNavigation(path: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frames = 0;
    let handle = 0;
    const tryFocus = () => {
      // the page may draw its heading after its data arrives: wait for it a little (about 3 s)
      if (focusMainHeading() || ++frames > 180) return;
      handle = requestAnimationFrame(tryFocus);
    };
    handle = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(handle);
  }, [path]);
}
