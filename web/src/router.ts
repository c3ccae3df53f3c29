import { signal, useSignal } from './signal';

/** The page's location: pathname plus query, kept in step with the address bar. */
const location = signal(window.location.pathname + window.location.search);
window.addEventListener('popstate', (e: PopStateEvent) => {
  location.set(window.location.pathname + window.location.search);
  restoreScroll((e.state as { scrollY?: number } | null)?.scrollY ?? 0);
});

/**
 * Back and Forward return to where the page was scrolled: the position is kept in the history
 * entry when the page is left, and restored once the page is tall enough again (its rows load
 * after the navigation), trying for up to two seconds.
 */
function restoreScroll(y: number): void {
  const started = Date.now();
  const attempt = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 2 && Date.now() - started < 2000) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** Changes the address without a new page (the list's "Show more": its page count). */
export function replaceAddress(to: string): void {
  history.replaceState(history.state, '', to);
}

export function navigate(to: string, replace = false): void {
  // the page being left keeps its scroll position in its history entry
  history.replaceState({ ...(history.state as object | null), scrollY: window.scrollY }, '');
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  location.set(to);
  window.scrollTo(0, 0);
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSignal(location);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname, query: url.searchParams };
}

/** Same-origin links navigate in the page (the click handler is on the document, see main.tsx). */
export function interceptLinks(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest('a');
  if (!a || a.target || a.hasAttribute('download') || a.origin !== window.location.origin) return;
  if (a.pathname.startsWith('/api/') || a.pathname.startsWith('/auth/') || a.pathname.startsWith('/graphql'))
    return;
  // a publication's landing page is the service's own HTML (docs/publications.md), not the app's
  if (a.pathname.startsWith('/publications/')) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
