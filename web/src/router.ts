import { signal, useSignal } from './signal';

/** The page's location: pathname plus query, kept in step with the address bar. */
const location = signal(window.location.pathname + window.location.search);
window.addEventListener('popstate', () => location.set(window.location.pathname + window.location.search));

export function navigate(to: string, replace = false): void {
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
  e.preventDefault();
  navigate(a.pathname + a.search);
}
