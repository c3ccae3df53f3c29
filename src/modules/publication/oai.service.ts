import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { isMfid, mfidTime } from '../../core/ids';
import type { SettingService } from '../setting/setting.service';
import { citationRecord } from './citation-record';
import { checkArguments, dateArgument, isVerb, OaiError, type Args, type Verb } from './oai-arguments';
import { countRecords, recordRows, type RecordRow } from './oai-records';
import { Publication } from './publication.entity';
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

export { recordSetsIn } from './oai-records';

export interface OaiDeps {
  /** PUBLIC_BASE_URL */
  baseUrl: string;
  /** PUBLISHER_NAME: the repository's name */
  publisher: string;
  adminEmail: string;
  /** records and headers per page (ListSets: ten times as many) */
  pageSize: number;
  settings: SettingService;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

/**
 * OAI-PMH 2.0 over the published and withdrawn publications (docs/publications.md,
 * "Harvesting"; the sitemaps are sitemap.service.ts). Lists are pages in the order of the
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
    if (verbs.length !== 1 || !isVerb(verbs[0]))
      return envelope(
        {},
        error(
          new OaiError(
            'badVerb',
            verbs.length > 1 ? 'verb is repeated' : verbs.length ? `no verb ${verbs[0]}` : 'verb is missing',
          ),
        ),
      );
    const verb = verbs[0];
    let given: Args;
    try {
      given = checkArguments(verb, args);
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

  private async existing(em: EntityManager, identifier: string, withManifest = false): Promise<RecordRow> {
    const id = this.idOf(identifier);
    const [row] = id ? await recordRows(em, { id }, 1, withManifest) : [undefined];
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
    const rows = await recordRows(em, filter, limit + 1, verb === 'ListRecords' && prefix === 'oai_datacite');
    const page = rows.slice(0, limit);
    if (!page.length) throw new OaiError('noRecordsMatch', 'no record matches the request');
    const more = rows.length > limit ? page[page.length - 1].unique_id : null;
    if (!resumed) pos.total = more ? await countRecords(em, { ...filter, after: undefined }) : page.length;
    const body =
      verb === 'ListIdentifiers'
        ? page.map((r) => this.headerXml(r)).join('')
        : page.map((r) => this.recordXml(r, prefix)).join('');
    return `<${verb}>${body}${this.tokenXml(key, pos, page.length, more, resumed, now)}</${verb}>`;
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
}
