import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';

/** One request the fake received, as it received it. */
export interface DataciteRequest {
  method: string;
  path: string;
  /** the basic-auth credentials were the repository's */
  authorized: boolean;
  contentType: string | null;
  body: any;
  /** the kernel-4 XML of the `xml` attribute, decoded (null when none was sent) */
  xml: string | null;
  /** what the fake answered */
  status: number;
}

export type FakeDoiState = 'draft' | 'registered' | 'findable';

export interface FakeDoi {
  doi: string;
  state: FakeDoiState;
  attributes: Record<string, unknown>;
  xml: string | null;
  /** the events applied to it, in order */
  events: string[];
}

/**
 * A local DataCite REST API (https://support.datacite.org/docs/api) of the documented subset
 * the service uses, on a real HTTP server: `POST /dois`, `PUT /dois/{id}`, `GET /dois/{id}`,
 * HTTP basic authentication with a repository id and password, JSON:API bodies
 * (`application/vnd.api+json`), DOIs in the draft, registered and findable states and the
 * events between them (`register`: draft → registered; `publish`: draft or registered →
 * findable; `hide`: findable → registered; a DOI never goes back to draft). Every `xml`
 * attribute is validated against the DataCite Metadata Schema 4.7 XSD with code of its own
 * (datacite-xsd-check.mjs, not the service's): an invalid one is a 422 and changes nothing.
 * Everything received is kept in `received`; `failNext(n)` answers the next n requests with a
 * 503 (then it answers again) to prove retries.
 */
export class FakeDatacite {
  readonly received: DataciteRequest[] = [];
  readonly dois = new Map<string, FakeDoi>();
  private failures = 0;
  private slow = 0;
  private slowMs = 0;
  /** requests being answered now, and the most at once since {@link resetInFlight} */
  inFlight = 0;
  maxInFlight = 0;
  private failStatus = 503;
  private server!: http.Server;
  private checker!: Worker;
  private nextCheck = 1;
  private readonly checks = new Map<
    number,
    (r: { errors: string[]; identifier: { value: string; type: string } | null }) => void
  >();
  url = '';

  constructor(
    readonly repositoryId = 'EXAMPLE.CATALOG',
    readonly password = 'not-a-real-password-42',
    readonly prefix = '10.80001',
  ) {}

  async start(): Promise<this> {
    this.checker = new Worker(path.join(__dirname, 'datacite-xsd-check.mjs'));
    this.checker.on(
      'message',
      (m: { id: number; errors: string[]; identifier: { value: string; type: string } | null }) => {
        this.checks.get(m.id)?.(m);
        this.checks.delete(m.id);
      },
    );
    this.server = http.createServer((req, res) => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.once('close', () => this.inFlight--);
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.checker.terminate();
  }

  /** The service's settings that point at this fake. */
  env(): Record<string, string> {
    return {
      DATACITE_API_URL: this.url,
      DATACITE_REPOSITORY_ID: this.repositoryId,
      DATACITE_PASSWORD: this.password,
      DATACITE_PREFIX: this.prefix,
    };
  }

  /** The next `n` requests are answered with `status` (503 by default), then it answers again. */
  failNext(n: number, status = 503): void {
    this.failures = n;
    this.failStatus = status;
  }

  /** The next `n` requests are answered `ms` later (a slow DataCite: requests that could overlap). */
  slowNext(n: number, ms: number): void {
    this.slow = n;
    this.slowMs = ms;
  }

  /** Starts counting the most requests at once again. */
  resetInFlight(): void {
    this.maxInFlight = this.inFlight;
  }

  /** Validates kernel-4 XML against the 4.7 XSD (the fake's own check): the errors, none when valid. */
  check(xml: string): Promise<{ errors: string[]; identifier: { value: string; type: string } | null }> {
    const id = this.nextCheck++;
    return new Promise((resolve) => {
      this.checks.set(id, resolve);
      this.checker.postMessage({ id, xml });
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const expected = `Basic ${Buffer.from(`${this.repositoryId}:${this.password}`).toString('base64')}`;
    const entry: DataciteRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorized: req.headers.authorization === expected,
      contentType: req.headers['content-type'] ?? null,
      body,
      xml: null,
      status: 0,
    };
    this.received.push(entry);
    const answer = (status: number, payload: unknown) => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/vnd.api+json' }).end(JSON.stringify(payload));
    };
    const refuse = (status: number, title: string, source?: string) =>
      answer(status, { errors: [{ status: String(status), title, ...(source ? { source } : {}) }] });

    if (this.slow > 0) {
      this.slow--;
      await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    }
    if (this.failures > 0) {
      this.failures--;
      return refuse(this.failStatus, 'Service unavailable (the fake was told to fail)');
    }
    if (!entry.authorized) return refuse(401, 'Bad credentials.');
    const match = /^\/dois(?:\/(.+))?$/.exec((req.url ?? '').split('?')[0]);
    if (!match) return refuse(404, 'The resource you are looking for does not exist.');
    const id = match[1] ? decodeURIComponent(match[1]).toLowerCase() : null;

    if (req.method === 'GET' && id) {
      const doi = this.dois.get(id);
      return doi
        ? answer(200, this.view(doi))
        : refuse(404, 'The resource you are looking for does not exist.');
    }
    const creating = req.method === 'POST' && !id;
    if (!creating && !(req.method === 'PUT' && id)) return refuse(405, 'Method not allowed');
    if (!/^application\/vnd\.api\+json/.test(entry.contentType ?? ''))
      return refuse(415, 'The content type must be application/vnd.api+json');
    const data = body?.data;
    if (!data || data.type !== 'dois' || typeof data.attributes !== 'object' || data.attributes === null)
      return refuse(400, 'You need to provide a payload following the JSONAPI spec');
    const a = data.attributes as Record<string, unknown>;
    const doiName = (typeof a.doi === 'string' ? a.doi : (id ?? '')).toLowerCase();
    if (!doiName) return refuse(422, "can't be blank", 'doi');
    if (id && doiName !== id) return refuse(422, 'The DOI in the body is not the one of the path', 'doi');
    if (!doiName.startsWith(`${this.prefix}/`))
      return refuse(403, `The prefix of ${doiName} is not one of this repository's`, 'doi');
    const existing = this.dois.get(doiName);
    if (creating && existing) return refuse(422, 'This DOI has already been taken', 'doi');

    // the metadata: the kernel-4 XML, checked against the schema; its identifier is the DOI
    if (a.xml !== undefined) {
      if (typeof a.xml !== 'string') return refuse(422, 'must be base64-encoded XML', 'xml');
      entry.xml = Buffer.from(a.xml, 'base64').toString('utf8');
      const checked = await this.check(entry.xml);
      if (checked.errors.length) return refuse(422, checked.errors.join(' '), 'xml');
      if (checked.identifier?.type !== 'DOI' || checked.identifier.value.toLowerCase() !== doiName)
        return refuse(422, `the XML identifier is not the DOI ${doiName}`, 'xml');
    }
    const event = a.event as string | undefined;
    let state: FakeDoiState = existing?.state ?? 'draft';
    if (event !== undefined) {
      const next = transition(state, event);
      if (!next) return refuse(422, `Event ${event} is not possible from state ${state}`, 'event');
      state = next;
    }
    const xml = entry.xml ?? existing?.xml ?? null;
    if (state !== 'draft') {
      // registered and findable DOIs need a landing page and valid metadata
      const url = a.url ?? existing?.attributes.url;
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return refuse(422, "can't be blank", 'url');
      if (!xml) return refuse(422, 'a registered DOI needs metadata', 'xml');
    }
    const { xml: _x, event: _e, ...rest } = a;
    const doi: FakeDoi = {
      doi: doiName,
      state,
      attributes: { ...(existing?.attributes ?? {}), ...rest },
      xml,
      events: [...(existing?.events ?? []), ...(event ? [event] : [])],
    };
    this.dois.set(doiName, doi);
    return answer(creating || !existing ? 201 : 200, this.view(doi));
  }

  private view(doi: FakeDoi) {
    return {
      data: {
        id: doi.doi,
        type: 'dois',
        attributes: {
          ...doi.attributes,
          doi: doi.doi,
          state: doi.state,
          ...(doi.xml ? { xml: Buffer.from(doi.xml).toString('base64') } : {}),
        },
      },
    };
  }
}

/** DataCite's state events; null when the event is not possible from `from`. */
function transition(from: FakeDoiState, event: string): FakeDoiState | null {
  if (event === 'publish') return 'findable';
  if (event === 'register') return from === 'findable' ? null : 'registered';
  if (event === 'hide') return from === 'draft' ? null : 'registered';
  return null;
}
