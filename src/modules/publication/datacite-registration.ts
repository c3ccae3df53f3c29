import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../core/errors';
import type { JobQueue, ClaimedJob } from '../../core/jobs/queue';
import type { JobHandler } from '../../core/jobs/worker';
import type { Logger } from '../../core/logger';
import { citationRecord, type CitationRecord } from './citation-record';
import { dataciteAttributes, dataciteXml } from './citation-datacite';
import { DataciteRefused, DataciteUnavailable, type DataciteClient } from './datacite-client';
import { assertValidDataciteXml } from './datacite-schema';
import { Publication, type DoiState, type PublicationState } from './publication.entity';

/** The queue of DataCite registrations (a job: make DataCite match one publication). */
export const DATACITE_QUEUE = 'datacite';
/**
 * Attempts of a registration job: retried with the queue's backoff (base × 2^(n−1), at most an
 * hour between two) until DataCite answers: about a day with the default base of 5 s.
 */
export const DATACITE_MAX_ATTEMPTS = 40;

/** What DataCite should say of a publication in each of its states. */
const WANTED: Record<PublicationState, DoiState> = {
  draft: 'draft',
  published: 'findable',
  withdrawn: 'registered',
};

/** The registration states a publication shows (REST `registration_state`, GraphQL `registrationState`). */
export const REGISTRATION_STATES = ['none', 'pending', 'draft', 'registered', 'findable', 'failed'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** How far a publication's DOI is: none (no DataCite), failed (refused), pending, or DataCite's state. */
export function registrationState(pub: Publication): RegistrationState {
  if (!pub.doi) return 'none';
  if (pub.registrationError) return 'failed';
  return pub.doiState === WANTED[pub.state] ? pub.doiState : 'pending';
}

/** 10 characters of Crockford base32 (50 bits): the opaque DOI suffix, as `xxxxx-xxxxx`. */
function suffix(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = randomBytes(10);
  const s = [...bytes].map((b) => alphabet[b & 31]).join('');
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/**
 * DOIs through DataCite (docs/publications.md, "DOIs through DataCite"): a DOI chosen when a
 * publication is created, and a registration job enqueued in the transaction of every change
 * DataCite must hear of (none when DataCite is not configured). Records are checked against
 * the DataCite Metadata Schema 4.7 before anything is sent.
 */
export class DataciteRegistrar {
  constructor(
    private readonly deps: {
      client: DataciteClient | null;
      queue: JobQueue;
      baseUrl: string;
      publisher: string;
    },
  ) {}

  get configured(): boolean {
    return this.deps.client !== null;
  }

  /** A new DOI (prefix/opaque suffix), or null without DataCite. */
  newDoi(): string | null {
    return this.deps.client ? `${this.deps.client.prefix}/${suffix()}` : null;
  }

  /** Enqueues, in `tx`'s transaction, the job that makes DataCite match this publication. */
  async enqueueIn(tx: EntityManager, publicationId: string): Promise<void> {
    if (!this.deps.client) return;
    await this.deps.queue.enqueue(
      tx,
      DATACITE_QUEUE,
      { publication_id: publicationId },
      // one publication's jobs never overlap nor pass each other (publish, then hide)
      { maxAttempts: DATACITE_MAX_ATTEMPTS, serialKey: `publication:${publicationId}` },
    );
  }

  /** The record DataCite gets for a publication: the public one (a next draft version is not shown). */
  async recordIn(em: EntityManager, pub: Publication): Promise<CitationRecord> {
    const [previous, next] = await Promise.all([
      pub.previousVersionId ? em.findOne(Publication, { uniqueId: pub.previousVersionId }) : null,
      em.findOne(Publication, { previousVersionId: pub.uniqueId, state: { $ne: 'draft' } }),
    ]);
    const link = (p: Publication | null) => (p ? { id: p.uniqueId, doi: p.doi ?? null } : null);
    return citationRecord(
      pub,
      { previous: link(previous), next: link(next) },
      { baseUrl: this.deps.baseUrl, publisher: this.deps.publisher },
    );
  }

  /**
   * Refuses (422 naming the field) a change whose record DataCite would get but the DataCite
   * Metadata Schema 4.7 refuses: checked in the change's transaction, so nothing is committed
   * or sent. Without DataCite nothing is sent, and nothing is checked here.
   */
  async assertSendableIn(tx: EntityManager, pub: Publication): Promise<void> {
    if (!this.deps.client) return;
    await assertValidDataciteXml(dataciteXml(await this.recordIn(tx, pub)));
  }

  /** The publications whose DataCite record names this one (its neighbours): they are sent again. */
  async neighboursIn(tx: EntityManager, pub: Publication): Promise<string[]> {
    if (!this.deps.client) return [];
    const rows = await tx.find(
      Publication,
      {
        $or: [
          ...(pub.previousVersionId ? [{ uniqueId: pub.previousVersionId }] : []),
          { previousVersionId: pub.uniqueId },
        ],
        doi: { $ne: null },
        state: { $ne: 'draft' },
      },
      { fields: ['uniqueId'] },
    );
    return rows.map((r) => r.uniqueId);
  }
}

/**
 * The registration job: makes DataCite's copy of one publication match it, step by step
 * (nothing → draft with `POST /dois`; → findable with the `publish` event; findable →
 * registered with `hide` when withdrawn; a draft withdrawn before DataCite heard of its
 * publication goes to registered with `register`), each step's outcome written at once, so a job
 * run again (a retry, a second job of the same publication) continues where DataCite is. Every
 * record is validated against the schema before it is sent. DataCite unreachable, a 5xx or a
 * 429: thrown, so the queue retries with its backoff. Any other refusal: kept as the
 * publication's `registrationError` and the job ends (retrying would be refused again).
 */
export class DataciteRegistrationRunner implements JobHandler {
  constructor(private readonly deps: { client: DataciteClient; registrar: DataciteRegistrar; log: Logger }) {}

  async run(job: ClaimedJob, em: EntityManager): Promise<void> {
    const id = String(job.payload.publication_id);
    const pub = await em.findOne(Publication, { uniqueId: id }, { refresh: true });
    if (!pub?.doi) return;
    const doi = pub.doi;
    const record = await this.deps.registrar.recordIn(em, pub);
    const xml = dataciteXml(record);
    try {
      await assertValidDataciteXml(xml);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await this.save(em, id, { registrationError: `not sent: ${err.message}` });
      return;
    }
    const attributes = {
      ...dataciteAttributes(record),
      xml: Buffer.from(xml, 'utf8').toString('base64'),
    };
    const wanted = WANTED[pub.state];
    let state = pub.doiState ?? null;
    try {
      let created = false;
      if (state === null) {
        state = await this.createDraft(doi, attributes);
        created = true;
        await this.save(em, id, { doiState: state });
      }
      if (state !== wanted) {
        // a DOI never goes back to draft: a draft is wanted only before DataCite has anything
        if (wanted !== 'draft') {
          const event = wanted === 'findable' ? 'publish' : state === 'findable' ? 'hide' : 'register';
          state = await this.deps.client.update(doi, attributes, event);
        }
      } else if (!created) {
        // the same state: the metadata only (a draft's edits, a new version of a published one)
        state = await this.deps.client.update(doi, attributes, null);
      }
      await this.save(em, id, { doiState: state, registrationError: null });
    } catch (err) {
      if (err instanceof DataciteRefused) {
        this.deps.log.warn({ publication: id, doi, status: err.status }, 'DataCite refused a registration');
        await this.save(em, id, { registrationError: err.message });
        return;
      }
      if (err instanceof DataciteUnavailable) await this.save(em, id, { doiState: state });
      throw err;
    }
  }

  /** The attempts ran out without DataCite answering: the managers see why. */
  async deadLetter(job: ClaimedJob, reason: string, em: EntityManager): Promise<void> {
    await this.save(em, String(job.payload.publication_id), { registrationError: reason.slice(0, 2000) });
  }

  /** POST /dois; a DOI already there (a lost answer to an earlier try) is taken as made. */
  private async createDraft(doi: string, attributes: Record<string, unknown>): Promise<DoiState> {
    try {
      return await this.deps.client.createDraft(doi, attributes);
    } catch (err) {
      if (!(err instanceof DataciteRefused) || err.status !== 422) throw err;
      const there = await this.deps.client.state(doi);
      if (there === null) throw err;
      return there;
    }
  }

  private async save(
    em: EntityManager,
    id: string,
    change: { doiState?: DoiState | null; registrationError?: string | null },
  ): Promise<void> {
    await em.nativeUpdate(Publication, { uniqueId: id }, change);
  }
}
