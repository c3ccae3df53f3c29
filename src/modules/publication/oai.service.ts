import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { isMfid, mfidTime } from '../../core/ids';
import type { SettingService } from '../setting/setting.service';
import { citationRecord, landingUrl } from './citation-record';
import { Publication, type ManifestDataset, type PublicationState } from './publication.entity';
import { decodeToken, encodeToken, TOKEN_LIFETIME_MS, type ListPosition, type ListVerb } from './oai-token';
import {
  datestamp,
  METADATA_FORMATS,
  METADATA_PREFIXES,
  metadataOf,
  oaiEnvelope,
  xmlEl,
  type MetadataPrefix,
} from './oai-xml';

export interface OaiDeps {
  /** PUBLIC_BASE_URL */
  baseUrl: string;
  /** PUBLISHER_NAME: the repository's name */
  publisher: string;
  adminEmail: string;
  /** records and headers per page (ListSets: ten times as many) */
  pageSize: number;
  /** URLs per sitemap file */
  sitemapFileUrls: number;
  settings: SettingService;
}

/** A request's arguments (besides `verb`), by name. */
type Args = Partial<Record<string, string>>;

type Verb = 'Identify' | 'ListMetadataFormats' | 'GetRecord' | ListVerb;

/** The arguments each verb takes (besides `verb`), and whether a resumption token may replace them. */
const VERBS: Record<Verb, { required: string[]; optional: string[]; resumable: boolean }> = {
  Identify: { required: [], optional: [], resumable: false },
  ListMetadataFormats: { required: [], optional: ['identifier'], resumable: false },
  ListSets: { required: [], optional: [], resumable: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [], resumable: false },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
};

const PREFIX_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+$/;
const SET_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

class OaiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A record's row: the publication, its datestamp, its sets and its neighbours' DOIs. */
interface RecordRow {
  unique_id: string;
  state: PublicationState;
  metadata: Publication['metadata'];
  dataset_ids: string[];
  manifest: ManifestDataset[] | null;
  doi: string | null;
  published_at: Date | string | null;
  withdrawn_at: Date | string | null;
  withdrawal_reason: string | null;
  previous_version_id: string | null;
  creation_time: Date | string;
  datestamp: Date | string;
  next_id: string | null;
  next_doi: string | null;
  prev_doi: string | null;
  sets: string;
}

/**
 * A record's datestamp: the last change of anything its metadata shows, to the second. Its own
 * row (publishing, withdrawal, a DOI), and its neighbours' (a next version published links it
 * `IsPreviousVersionOf`; a DOI of either changes the link).
 */
const DATESTAMP = `date_trunc('second', greatest(p.modification_time, n.modification_time, pv.modification_time))`;
const RECORDS_FROM = `from publication p
  left join publication n on n.previous_version_id = p.unique_id and n.state <> 'draft'
  left join publication pv on pv.unique_id = p.previous_version_id`;

interface RecordFilter {
  after?: string;
  id?: string;
  set?: string | null;
  from?: string | null;
  until?: string | null;
}

function where(f: RecordFilter): { sql: string; params: unknown[] } {
  const terms = [`p.state in ('published', 'withdrawn')`];
  const params: unknown[] = [];
  if (f.id !== undefined) {
    terms.push('p.unique_id = ?');
    params.push(f.id);
  }
  if (f.after !== undefined) {
    terms.push('p.unique_id > ?');
    params.push(f.after);
  }
  if (f.from) {
    terms.push(`${DATESTAMP} >= ?`);
    params.push(f.from);
  }
  if (f.until) {
    terms.push(`${DATESTAMP} <= ?`);
    params.push(f.until);
  }
  if (f.set) {
    terms.push(
      'exists (select 1 from publication_set s where s.publication_id = p.unique_id and s.project_mfid = ?)',
    );
    params.push(f.set);
  }
  return { sql: terms.join(' and '), params };
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

/** A date argument: `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`, as the ISO instant it bounds. */
function dateArgument(name: string, value: string, end: boolean): { iso: string; day: boolean } {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!day && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value))
    throw new OaiError('badArgument', `${name} must be YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ (UTC)`);
  const iso = day ? `${value}T${end ? '23:59:59' : '00:00:00'}Z` : value;
  const t = new Date(iso);
  if (Number.isNaN(t.getTime()) || datestamp(t) !== iso)
    throw new OaiError('badArgument', `${name} is not a date: ${value}`);
  return { iso, day };
}

/**
 * OAI-PMH 2.0 over the published and withdrawn publications (docs/publications.md,
 * "Harvesting"), and the sitemaps of their landing pages. Lists are pages in the order of the
 * publications' ids, resumed by stateless signed tokens (oai-token.ts).
 */
export class OaiService {
  private key: Buffer | null = null;
  private readonly host: string;

  constructor(private readonly deps: OaiDeps) {
    this.host = new URL(deps.baseUrl).hostname;
  }

  get baseUrl(): string {
    return `${this.deps.baseUrl}/oai`;
  }

  /** The token key: one for the whole service, kept in the database so tokens outlive restarts. */
  private async signingKey(em: EntityManager): Promise<Buffer> {
    this.key ??= Buffer.from(
      await this.deps.settings.getOrCreate(em, 'oai_token_secret', () =>
        randomBytes(32).toString('base64url'),
      ),
      'base64url',
    );
    return this.key;
  }

  identifier(id: string): string {
    return `oai:${this.host}:${id}`;
  }

  private idOf(identifier: string): string | null {
    const prefix = `oai:${this.host}:`;
    if (!identifier.startsWith(prefix)) return null;
    const id = identifier.slice(prefix.length);
    return isMfid(id) ? id : null;
  }

  /** The answer (an XML document) to one OAI-PMH request of these arguments, in the order sent. */
  async answer(em: EntityManager, args: [string, string][], now = new Date()): Promise<string> {
    const envelope = (request: Record<string, string | undefined>, body: string) =>
      oaiEnvelope({ now, baseUrl: this.baseUrl, request, body });
    const error = (e: OaiError) => xmlEl('error', e.message, { code: e.code });
    const verbs = args.filter(([k]) => k === 'verb').map(([, v]) => v);
    if (verbs.length !== 1 || !Object.hasOwn(VERBS, verbs[0]))
      return envelope(
        {},
        error(
          new OaiError(
            'badVerb',
            verbs.length > 1 ? 'verb is repeated' : verbs.length ? `no verb ${verbs[0]}` : 'verb is missing',
          ),
        ),
      );
    const verb = verbs[0] as Verb;
    let given: Args;
    try {
      given = this.checkArguments(verb, args);
    } catch (e) {
      if (e instanceof OaiError) return envelope({}, error(e));
      throw e;
    }
    const request = { verb, ...given };
    try {
      return envelope(request, await this.run(em, verb, given, now));
    } catch (e) {
      if (!(e instanceof OaiError)) throw e;
      // an argument that fails its syntax is not echoed (the spec's rule for badArgument)
      return envelope(e.code === 'badArgument' ? {} : request, error(e));
    }
  }

  private checkArguments(verb: Verb, args: [string, string][]): Args {
    const spec = VERBS[verb];
    const out: Args = {};
    for (const [k, v] of args) {
      if (k === 'verb') continue;
      if (Object.hasOwn(out, k)) throw new OaiError('badArgument', `${k} is repeated`);
      const allowed = [...spec.required, ...spec.optional, ...(spec.resumable ? ['resumptionToken'] : [])];
      if (!allowed.includes(k)) throw new OaiError('badArgument', `${verb} takes no argument ${k}`);
      out[k] = v;
    }
    if (out.resumptionToken !== undefined) {
      if (Object.keys(out).length > 1)
        throw new OaiError('badArgument', 'resumptionToken is an exclusive argument');
      return out;
    }
    for (const k of spec.required)
      if (out[k] === undefined) throw new OaiError('badArgument', `${verb} needs ${k}`);
    if (out.metadataPrefix !== undefined && !PREFIX_PATTERN.test(out.metadataPrefix))
      throw new OaiError('badArgument', 'metadataPrefix is not a metadata prefix');
    if (out.set !== undefined && !SET_PATTERN.test(out.set))
      throw new OaiError('badArgument', 'set is not a setSpec');
    if (out.identifier !== undefined && (out.identifier.length > 300 || /\s/.test(out.identifier)))
      throw new OaiError('badArgument', 'identifier is not an identifier');
    const from = out.from === undefined ? null : dateArgument('from', out.from, false);
    const until = out.until === undefined ? null : dateArgument('until', out.until, true);
    if (from && until && from.day !== until.day)
      throw new OaiError('badArgument', 'from and until must have the same granularity');
    if (from && until && from.iso > until.iso) throw new OaiError('badArgument', 'from is later than until');
    return out;
  }

  private async run(em: EntityManager, verb: Verb, a: Args, now: Date): Promise<string> {
    switch (verb) {
      case 'Identify':
        return this.identify(em);
      case 'ListMetadataFormats':
        if (a.identifier !== undefined) await this.existing(em, a.identifier);
        return `<ListMetadataFormats>${METADATA_PREFIXES.map(
          (p) =>
            '<metadataFormat>' +
            xmlEl('metadataPrefix', p) +
            xmlEl('schema', METADATA_FORMATS[p].schema) +
            xmlEl('metadataNamespace', METADATA_FORMATS[p].namespace) +
            '</metadataFormat>',
        ).join('')}</ListMetadataFormats>`;
      case 'GetRecord': {
        const prefix = this.prefix(a.metadataPrefix);
        const row = await this.existing(em, a.identifier ?? '', prefix === 'oai_datacite');
        return `<GetRecord>${this.recordXml(row, prefix)}</GetRecord>`;
      }
      case 'ListSets':
        return this.listSets(em, a, now);
      case 'ListIdentifiers':
      case 'ListRecords':
        return this.listRecords(em, verb, a, now);
    }
  }

  private prefix(p: string | null | undefined): MetadataPrefix {
    if (!p || !(METADATA_PREFIXES as string[]).includes(p))
      throw new OaiError(
        'cannotDisseminateFormat',
        `records are disseminated as ${METADATA_PREFIXES.join(' and ')}, not ${p ?? 'nothing'}`,
      );
    return p as MetadataPrefix;
  }

  private async identify(em: EntityManager): Promise<string> {
    // MFIDs begin with their creation time, which precedes every datestamp of the record
    const [first] = await rawQuery<{ id: string | null }>(
      em,
      `select min(unique_id) as id from publication where state in ('published', 'withdrawn')`,
    );
    const earliest = first.id ? mfidTime(first.id) : new Date();
    return (
      '<Identify>' +
      xmlEl('repositoryName', this.deps.publisher) +
      xmlEl('baseURL', this.baseUrl) +
      xmlEl('protocolVersion', '2.0') +
      xmlEl('adminEmail', this.deps.adminEmail) +
      xmlEl('earliestDatestamp', datestamp(earliest)) +
      xmlEl('deletedRecord', 'persistent') +
      xmlEl('granularity', 'YYYY-MM-DDThh:mm:ssZ') +
      '</Identify>'
    );
  }

  private async rows(
    em: EntityManager,
    f: RecordFilter,
    limit: number,
    withManifest: boolean,
  ): Promise<RecordRow[]> {
    const w = where(f);
    return rawQuery<RecordRow>(
      em,
      `select p.unique_id, p.state, p.metadata, p.dataset_ids, ${withManifest ? 'p.manifest' : 'null as manifest'},
         p.doi, p.published_at, p.withdrawn_at, p.withdrawal_reason, p.previous_version_id, p.creation_time,
         ${DATESTAMP} as datestamp, n.unique_id as next_id, n.doi as next_doi, pv.doi as prev_doi,
         (select coalesce(string_agg(s.project_mfid, ',' order by s.project_mfid), '')
            from publication_set s where s.publication_id = p.unique_id) as sets
       ${RECORDS_FROM} where ${w.sql} order by p.unique_id limit ?`,
      [...w.params, limit],
    );
  }

  private async existing(em: EntityManager, identifier: string, withManifest = false): Promise<RecordRow> {
    const id = this.idOf(identifier);
    const [row] = id ? await this.rows(em, { id }, 1, withManifest) : [undefined];
    if (!row) throw new OaiError('idDoesNotExist', `no record ${identifier}`);
    return row;
  }

  private headerXml(row: RecordRow): string {
    return (
      `<header${row.state === 'withdrawn' ? ' status="deleted"' : ''}>` +
      xmlEl('identifier', this.identifier(row.unique_id)) +
      xmlEl('datestamp', datestamp(new Date(row.datestamp))) +
      (row.sets
        ? row.sets
            .split(',')
            .map((s) => xmlEl('setSpec', s))
            .join('')
        : '') +
      '</header>'
    );
  }

  private recordXml(row: RecordRow, prefix: MetadataPrefix): string {
    if (row.state === 'withdrawn') return `<record>${this.headerXml(row)}</record>`;
    const pub = new Publication();
    Object.assign(pub, {
      uniqueId: row.unique_id,
      state: row.state,
      metadata: row.metadata,
      datasetIds: row.dataset_ids,
      manifest: row.manifest,
      doi: row.doi,
      publishedAt: date(row.published_at),
      withdrawnAt: date(row.withdrawn_at),
      withdrawalReason: row.withdrawal_reason,
      previousVersionId: row.previous_version_id,
      creationTime: new Date(row.creation_time),
    });
    const record = citationRecord(
      pub,
      {
        previous: row.previous_version_id ? { id: row.previous_version_id, doi: row.prev_doi } : null,
        next: row.next_id ? { id: row.next_id, doi: row.next_doi } : null,
      },
      { baseUrl: this.deps.baseUrl, publisher: this.deps.publisher },
    );
    return `<record>${this.headerXml(row)}<metadata>${metadataOf(prefix, record)}</metadata></record>`;
  }

  private async position(em: EntityManager, verb: ListVerb, a: Args, now: Date) {
    const key = await this.signingKey(em);
    if (a.resumptionToken === undefined) return { key, resumed: false, pos: null };
    const pos = decodeToken(key, a.resumptionToken, now.getTime());
    if (!pos || pos.verb !== verb)
      throw new OaiError('badResumptionToken', 'the resumption token is not valid, or has expired');
    return { key, resumed: true, pos };
  }

  private tokenXml(
    key: Buffer,
    pos: ListPosition,
    sent: number,
    more: string | null,
    resumed: boolean,
    now: Date,
  ): string {
    const attrs = {
      completeListSize: pos.total ? String(pos.total) : null,
      cursor: String(pos.cursor),
    };
    if (!more) return resumed ? xmlEl('resumptionToken', '', attrs) : '';
    const next: ListPosition = { ...pos, after: more, cursor: pos.cursor + sent, issued: now.getTime() };
    return xmlEl('resumptionToken', encodeToken(key, next), {
      expirationDate: datestamp(new Date(now.getTime() + TOKEN_LIFETIME_MS)),
      ...attrs,
    });
  }

  private async listRecords(
    em: EntityManager,
    verb: 'ListIdentifiers' | 'ListRecords',
    a: Args,
    now: Date,
  ): Promise<string> {
    const { key, resumed, pos: token } = await this.position(em, verb, a, now);
    let pos: ListPosition;
    if (token) pos = token;
    else {
      pos = {
        verb,
        prefix: this.prefix(a.metadataPrefix),
        set: a.set ?? null,
        from: a.from === undefined ? null : dateArgument('from', a.from, false).iso,
        until: a.until === undefined ? null : dateArgument('until', a.until, true).iso,
        after: '',
        cursor: 0,
        total: null,
        issued: now.getTime(),
      };
      if (pos.set) await this.assertSet(em, pos.set);
    }
    const prefix = this.prefix(pos.prefix);
    const filter = { after: pos.after, set: pos.set, from: pos.from, until: pos.until };
    const limit = this.deps.pageSize;
    const rows = await this.rows(em, filter, limit + 1, verb === 'ListRecords' && prefix === 'oai_datacite');
    const page = rows.slice(0, limit);
    if (!page.length) throw new OaiError('noRecordsMatch', 'no record matches the request');
    const more = rows.length > limit ? page[page.length - 1].unique_id : null;
    if (!resumed) pos.total = more ? await this.count(em, { ...filter, after: undefined }) : page.length;
    const body =
      verb === 'ListIdentifiers'
        ? page.map((r) => this.headerXml(r)).join('')
        : page.map((r) => this.recordXml(r, prefix)).join('');
    return `<${verb}>${body}${this.tokenXml(key, pos, page.length, more, resumed, now)}</${verb}>`;
  }

  private async count(em: EntityManager, f: RecordFilter): Promise<number> {
    const w = where(f);
    const needsJoins = Boolean(f.from ?? f.until);
    const [row] = await rawQuery<{ n: number }>(
      em,
      `select count(*)::int as n ${needsJoins ? RECORDS_FROM : 'from publication p'} where ${w.sql}`,
      w.params,
    );
    return row.n;
  }

  private async assertSet(em: EntityManager, set: string): Promise<void> {
    const [any] = await rawQuery(em, 'select 1 from publication_set limit 1');
    if (!any) throw new OaiError('noSetHierarchy', 'this repository has no sets yet');
    const [found] = await rawQuery(em, 'select 1 from publication_set where project_mfid = ? limit 1', [set]);
    if (!found) throw new OaiError('noRecordsMatch', `no set ${set}`);
  }

  private async listSets(em: EntityManager, a: Args, now: Date): Promise<string> {
    const { key, resumed, pos: token } = await this.position(em, 'ListSets', a, now);
    const pos: ListPosition = token ?? {
      verb: 'ListSets',
      prefix: null,
      set: null,
      from: null,
      until: null,
      after: '',
      cursor: 0,
      total: null,
      issued: now.getTime(),
    };
    const limit = this.deps.pageSize * 10;
    const rows = await rawQuery<{ spec: string; name: string | null }>(
      em,
      `select s.spec, coalesce(pr.title, pr.project_id) as name
         from (select distinct project_mfid as spec from publication_set where project_mfid > ?
               order by project_mfid limit ?) s
         left join project pr on pr.unique_id = s.spec order by s.spec`,
      [pos.after, limit + 1],
    );
    const page = rows.slice(0, limit);
    if (!page.length) throw new OaiError('noSetHierarchy', 'this repository has no sets yet');
    const more = rows.length > limit ? page[page.length - 1].spec : null;
    if (!resumed)
      pos.total = more
        ? ((
            await rawQuery<{ n: number }>(
              em,
              'select count(distinct project_mfid)::int as n from publication_set',
            )
          )[0]?.n ?? null)
        : page.length;
    const sets = page
      .map(
        (s) =>
          `<set>${xmlEl('setSpec', s.spec)}${xmlEl('setName', s.name?.trim() || `Project ${s.spec}`)}</set>`,
      )
      .join('');
    return `<ListSets>${sets}${this.tokenXml(key, pos, page.length, more, resumed, now)}</ListSets>`;
  }

  // ---- sitemaps -------------------------------------------------------------------------------

  /** How many sitemap files there are: the first holds the home page, then landing pages by id. */
  async sitemapFiles(em: EntityManager): Promise<number> {
    const [row] = await rawQuery<{ n: number }>(
      em,
      `select count(*)::int as n from publication where state = 'published'`,
    );
    return Math.max(1, Math.ceil((row.n + 1) / this.deps.sitemapFileUrls));
  }

  /** The sitemap index: `/sitemaps/{n}.xml` for every file. */
  async sitemapIndex(em: EntityManager): Promise<string> {
    const files = await this.sitemapFiles(em);
    const entries = Array.from(
      { length: files },
      (_, i) => `<sitemap>${xmlEl('loc', `${this.deps.baseUrl}/sitemaps/${i + 1}.xml`)}</sitemap>`,
    );
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>\n`
    );
  }

  /**
   * Sitemap file `n` (from 1), or null when there is none: the landing pages of published
   * publications in the order of their ids, file 1 starting with the home page. The file's
   * first id is found on the (state, id) index and its URLs read from there.
   */
  async sitemapFile(em: EntityManager, n: number): Promise<string | null> {
    const per = this.deps.sitemapFileUrls;
    if (!Number.isSafeInteger(n) || n < 1 || n > (await this.sitemapFiles(em))) return null;
    const skip = n === 1 ? 0 : (n - 1) * per - 1;
    const take = n === 1 ? per - 1 : per;
    const rows = await rawQuery<{ unique_id: string; modification_time: Date | string }>(
      em,
      `select unique_id, modification_time from publication
        where state = 'published' and unique_id >= coalesce(
          (select unique_id from publication where state = 'published' order by unique_id offset ? limit 1), '')
        order by unique_id limit ?`,
      [skip, take],
    );
    const urls = [
      ...(n === 1 ? [`<url>${xmlEl('loc', `${this.deps.baseUrl}/`)}</url>`] : []),
      ...rows.map(
        (r) =>
          `<url>${xmlEl('loc', landingUrl(this.deps.baseUrl, r.unique_id))}${xmlEl(
            'lastmod',
            datestamp(new Date(r.modification_time)),
          )}</url>`,
      ),
    ];
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`
    );
  }
}

/**
 * Records the OAI-PMH sets of a publication being published, in its publishing transaction: the
 * projects its datasets are in now (they never change after; publication-set.entity.ts).
 */
export async function recordSetsIn(
  tx: EntityManager,
  publicationId: string,
  datasetIds: readonly string[],
): Promise<void> {
  if (!datasetIds.length) return;
  await rawQuery(
    tx,
    `insert into publication_set (publication_id, project_mfid)
     select distinct ?, project_mfid from dataset where unique_id in (${datasetIds.map(() => '?').join(', ')})
       and project_mfid is not null
     on conflict do nothing`,
    [publicationId, ...datasetIds],
  );
}
