import type { DataciteSettings } from '../../core/config';
import type { DoiState } from './publication.entity';

/** DataCite did not answer, or answered that it may later (network error, 5xx, 429): try again. */
export class DataciteUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataciteUnavailable';
  }
}

/** DataCite answered with a refusal (a 4xx other than 429): retrying the same request is useless. */
export class DataciteRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'DataciteRefused';
  }
}

/** The `event` of a DOI update: DataCite's state transitions. */
export type DataciteEvent = 'publish' | 'register' | 'hide';

/** A request to DataCite gives up after this long (it is retried through the job queue). */
const TIMEOUT_MS = 30_000;
/** At most this much of a refusal's body is kept (it becomes the publication's registration error). */
const MAX_REASON = 1000;

interface DoiBody {
  data?: { id?: string; attributes?: { doi?: string; state?: string } };
}

/**
 * The documented subset of DataCite's REST API (https://support.datacite.org/docs/api) this
 * service uses: `POST /dois` (a draft), `PUT /dois/{doi}` (metadata and a state `event`),
 * `GET /dois/{doi}`; JSON:API bodies, HTTP basic authentication with the repository id and
 * password. The password goes only into the Authorization header, never into an error message.
 */
export class DataciteClient {
  constructor(private readonly settings: DataciteSettings) {}

  get prefix(): string {
    return this.settings.prefix;
  }

  /** A draft DOI with these attributes; its state as DataCite reports it. */
  async createDraft(doi: string, attributes: Record<string, unknown>): Promise<DoiState> {
    const body = await this.send('POST', '/dois', {
      data: { type: 'dois', attributes: { ...attributes, doi } },
    });
    return stateOf(body, 'draft');
  }

  /** Updates a DOI's metadata and, with an `event`, its state; its state as DataCite reports it. */
  async update(
    doi: string,
    attributes: Record<string, unknown>,
    event: DataciteEvent | null,
  ): Promise<DoiState> {
    const body = await this.send('PUT', `/dois/${encodeURIComponent(doi)}`, {
      data: { id: doi, type: 'dois', attributes: { ...attributes, doi, ...(event ? { event } : {}) } },
    });
    const expected: DoiState = event === 'publish' ? 'findable' : event ? 'registered' : 'draft';
    return stateOf(body, expected);
  }

  /** The DOI's state at DataCite, or null when DataCite has no such DOI. */
  async state(doi: string): Promise<DoiState | null> {
    try {
      return stateOf(await this.send('GET', `/dois/${encodeURIComponent(doi)}`), 'draft');
    } catch (err) {
      if (err instanceof DataciteRefused && err.status === 404) return null;
      throw err;
    }
  }

  private async send(method: string, path: string, body?: unknown): Promise<DoiBody> {
    const auth = Buffer.from(`${this.settings.repositoryId}:${this.settings.password}`).toString('base64');
    let res: Response;
    try {
      res = await fetch(`${this.settings.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Basic ${auth}`,
          accept: 'application/vnd.api+json',
          ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const why =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      throw new DataciteUnavailable(`DataCite did not answer ${method} ${path}: ${why}`);
    }
    const text = await res.text().catch(() => '');
    if (res.status === 429 || res.status >= 500)
      throw new DataciteUnavailable(`DataCite answered ${method} ${path} with ${res.status}`);
    if (!res.ok)
      throw new DataciteRefused(
        res.status,
        `DataCite refused ${method} ${path} (${res.status}): ${reason(text)}`.slice(0, MAX_REASON),
      );
    try {
      return JSON.parse(text) as DoiBody;
    } catch {
      return {};
    }
  }
}

/** The `errors[].title` of a JSON:API error body, else the body's start. */
function reason(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errors?: { title?: string; source?: string }[] };
    const titles = (parsed.errors ?? []).map((e) =>
      e.source ? `${e.source}: ${e.title ?? ''}` : (e.title ?? ''),
    );
    if (titles.length) return titles.join('; ');
  } catch {
    // not JSON
  }
  return text.slice(0, 300) || 'no reason given';
}

function stateOf(body: DoiBody, fallback: DoiState): DoiState {
  const s = body.data?.attributes?.state;
  return s === 'draft' || s === 'registered' || s === 'findable' ? s : fallback;
}
