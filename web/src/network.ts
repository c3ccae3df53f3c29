/** What the page says when the service cannot be reached at all (no answer, not an error answer). */
export const UNREACHABLE =
  'The catalog service cannot be reached: check your network connection, then try again (reload the page).';

/** The service could not be reached: fetch failed before any answer (offline, DNS, refused, reset). */
export class UnreachableError extends Error {
  constructor() {
    super(UNREACHABLE);
  }
}

/** fetch, with a failure to reach the service told in plain words instead of "Failed to fetch". */
export async function reach(input: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new UnreachableError();
  }
}
