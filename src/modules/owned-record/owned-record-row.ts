import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Projection } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import type { Sql } from '../../core/db/sql';
import type { User } from '../user/user.entity';
import type { OwnedRecord } from '../permission/owned-record.policy';

/**
 * The read model of datasets and samples (DESIGN §13): a record is read as a typed plain row,
 * its columns and the related values an include set asks for, built by one projection in SQL.
 * GraphQL types and REST encoders are fed by rows; a value a row was read without is read by the
 * request's row loader (batched), never by another path. This file holds what the two kinds
 * share; `dataset-row.ts` and `sample-row.ts` hold their own columns and relations.
 */

/** The owner as rows carry it: the public-safe fields (the user's own resolvers and encoders apply). */
export type OwnerRow = Pick<
  User,
  'uniqueId' | 'username' | 'email' | 'firstName' | 'lastName' | 'isServiceAccount'
>;

/** The project a record is assigned to, as rows carry it. */
export interface ProjectRow {
  uniqueId: string;
  projectId: string;
  title: string | null;
}

/** The columns datasets and samples share, and the relations they share when included. */
export interface OwnedRecordRow {
  uniqueId: string;
  public: boolean;
  creationTime: Date;
  modificationTime: Date;
  ownerId: string;
  projectMfid: string | null;
  /** a dataset's instrument MFID (samples have none) */
  instrumentMfid?: string | null;
  /** with `owner`: the owner */
  owner?: OwnerRow | null;
  /** with `project`: the project it is assigned to */
  project?: ProjectRow | null;
  /** with `project`: the project's slug, or the display value a legacy record keeps */
  projectId?: string | null;
}

/** What a read of datasets or samples includes besides the columns. */
export interface OwnedRecordInclude {
  owner?: boolean;
  project?: boolean;
}

/** A row as the projection selects it (`_id`, the MFID, and the projection's columns). */
export type RawRow = Record<string, unknown>;

/**
 * A row of a list read as one text value (`_json`: the legacy list's record, written by
 * PostgreSQL from the row's columns) and, when the read included it, its owner.
 */
export interface JsonRow {
  _id: string;
  _json: string;
  _owner?: OwnerRow | null;
}

/** A page of {@link JsonRow}s. */
export interface JsonRowPage {
  rows: JsonRow[];
  nextCursor: string | null;
}

/** How one kind of owned record is read: its table, its projection, and its rows. */
export interface RecordReader<R extends OwnedRecordRow, I extends object> {
  table: 'dataset' | 'sample';
  /** the alias the projection reads the table's columns under */
  alias: string;
  /** the select list and joins of rows of the table under `alias`, for `include` */
  projection(include: Partial<I>): Projection;
  /** a row of that projection */
  row(raw: RawRow): R;
}

/** A time column as the driver reads it, as text (UTC, microseconds truncated): `new Date` reads it. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A lateral join `alias` of the row of `table` whose `unique_id` is `key`, selecting `columns`.
 * `offset 0` keeps it a subquery, so PostgreSQL memoizes it by key: a page's rows share a few
 * owners, projects and instruments, each read once.
 */
export function lateral(alias: string, table: string, key: string, columns: string): string {
  return `left join lateral (select ${columns} from ${table} t where t.unique_id = ${key} offset 0) ${alias} on true`;
}

/**
 * The shared part of a kind's projection over `a`: the shared columns, and the owner and project
 * when included. `projectIdFallback` is the column `projectId` shows when the record has no project.
 */
export function ownedProjection(
  a: string,
  include: OwnedRecordInclude,
  projectIdFallback?: string,
): Projection {
  const columns = [
    `${a}.public, ${iso(`${a}.creation_time`)} as creation_time`,
    `${iso(`${a}.modification_time`)} as modification_time, ${a}.owner_id, ${a}.project_mfid`,
  ];
  const joins: string[] = [];
  if (include.owner) {
    columns.push('_u.o as _owner');
    joins.push(
      lateral(
        '_u',
        'app_user',
        `${a}.owner_id`,
        `json_build_object('uniqueId', t.unique_id, 'username', t.username, 'email', t.email,
          'firstName', t.first_name, 'lastName', t.last_name, 'isServiceAccount', t.is_service_account) as o`,
      ),
    );
  }
  if (include.project) {
    // plain columns (the REST list's JSON reads them too, owned-record-list.legacy.ts); `_project_id` is the
    // slug shown, a legacy record's display value when it has no project
    const slug = projectIdFallback ? `coalesce(_p.project_id, ${projectIdFallback})` : '_p.project_id';
    columns.push(`_p.unique_id as _project_mfid, _p.project_id as _project_slug, _p.title as _project_title,
      ${slug} as _project_id`);
    joins.push(lateral('_p', 'project', `${a}.project_mfid`, 't.unique_id, t.project_id, t.title'));
  }
  return { columns: columns.join(', '), joins: joins.join(' ') };
}

/** The shared part of a row. */
export function ownedRow(raw: RawRow): OwnedRecordRow {
  const row: OwnedRecordRow = {
    uniqueId: raw._id as string,
    public: raw.public as boolean,
    creationTime: new Date(raw.creation_time as string),
    modificationTime: new Date(raw.modification_time as string),
    ownerId: raw.owner_id as string,
    projectMfid: raw.project_mfid as string | null,
  };
  if (raw._owner !== undefined) row.owner = raw._owner as OwnerRow | null;
  if (raw._project_mfid !== undefined) {
    const uniqueId = raw._project_mfid as string | null;
    row.project =
      uniqueId === null
        ? null
        : { uniqueId, projectId: raw._project_slug as string, title: raw._project_title as string | null };
    row.projectId = raw._project_id as string | null;
  }
  return row;
}

/** Merges two projections (the shared part and a kind's own). */
export function joinProjections(...parts: Projection[]): Projection {
  return {
    columns: parts.map((p) => p.columns).join(', '),
    joins: parts.map((p) => p.joins).join(' '),
  };
}

/**
 * The select of rows of `reader` for `include` from `from` (a FROM item naming the table's
 * columns under the reader's alias: the table itself, or a subquery), for callers that add their
 * own conditions, order and extra columns (`extra`, a select list over the alias).
 */
export function rowsSelect<R extends OwnedRecordRow, I extends object>(
  reader: RecordReader<R, I>,
  include: Partial<I>,
  from: string,
  extra = '',
): string {
  const p = reader.projection(include);
  const a = reader.alias;
  return `select ${a}.unique_id as _id, ${extra ? `${extra}, ` : ''}${p.columns} from ${from} ${p.joins}`;
}

/**
 * The rows of these records, by MFID; missing ones left out. Whoever may read them, unless
 * `visible` (the policy's condition on the reader's alias) narrows them: callers check.
 */
export async function rowsByIds<R extends OwnedRecordRow, I extends object>(
  em: EntityManager,
  reader: RecordReader<R, I>,
  ids: readonly string[],
  include: Partial<I>,
  visible?: Sql | null,
): Promise<R[]> {
  const a = reader.alias;
  const rows = await rawQuery<RawRow>(
    em,
    `${rowsSelect(reader, include, `${reader.table} ${a}`)} where ${a}.unique_id in (?)${visible ? ` and (${visible.sql})` : ''}`,
    [[...ids], ...(visible?.params ?? [])],
  );
  return rows.map((r) => reader.row(r));
}

/** The key of a row loader: a record, and what its row is wanted with (none: the columns). */
export interface RowKey<I> {
  id: string;
  include?: Partial<I>;
}

/** The relations an include set asks for, by name, in order. */
const asked = (include: object | undefined): string[] =>
  Object.entries(include ?? {})
    .filter(([, on]) => on === true)
    .map(([key]) => key)
    .sort();

/**
 * A per-request loader of rows by MFID with what each key asks them to include: the keys of
 * one execution wave (a page's nodes asking for relations their read left out, the datasets of
 * a page of files) are read in one statement, with every relation any of them asked for.
 * Callers load only records the caller may read.
 */
export function rowLoader<R extends OwnedRecordRow, I extends object>(
  em: EntityManager,
  reader: RecordReader<R, I>,
): DataLoader<RowKey<I>, R | null, string> {
  return new DataLoader<RowKey<I>, R | null, string>(
    async (keys) => {
      const include = Object.fromEntries(keys.flatMap((k) => asked(k.include)).map((key) => [key, true]));
      const rows = await rowsByIds(em, reader, [...new Set(keys.map((k) => k.id))], include as Partial<I>);
      const byId = new Map(rows.map((r) => [r.uniqueId, r]));
      return keys.map((k) => byId.get(k.id) ?? null);
    },
    { cacheKeyFn: (k) => `${asked(k.include).join(',')}:${k.id}` },
  );
}

/**
 * What `pick` reads of `row`: at once when its read included `key` (no promise: field resolvers
 * of a page's nodes stay synchronous), else of the same record read with `key` through `loader`.
 */
export function fromRow<R extends OwnedRecordRow, I extends object, T>(
  row: R,
  key: keyof I & keyof R & string,
  loader: DataLoader<RowKey<I>, R | null, string>,
  pick: (row: R) => T,
): T | Promise<T> {
  if (row[key] !== undefined) return pick(row);
  const include = { [key]: true } as Partial<I>;
  return loader.load({ id: row.uniqueId, include }).then((read) => pick(read ?? row));
}

/**
 * `rows` with every relation of `keys`: rows whose read left some out are read again with them
 * through `loader` (one statement for the page) into copies; the others stay as they are.
 */
export async function withIncludes<R extends OwnedRecordRow, I extends object>(
  rows: readonly R[],
  keys: readonly (keyof I & keyof R & string)[],
  loader: DataLoader<RowKey<I>, R | null, string>,
): Promise<R[]> {
  const lacking = (row: R) => keys.filter((key) => row[key] === undefined);
  if (rows.every((row) => lacking(row).length === 0)) return [...rows];
  return Promise.all(
    rows.map(async (row) => {
      const missing = lacking(row);
      if (!missing.length) return row;
      const include = Object.fromEntries(missing.map((key) => [key, true])) as Partial<I>;
      const read = await loader.load({ id: row.uniqueId, include });
      // the row's own values (its list's `projectRelation`, say) stay
      return read ? Object.assign({}, read, row) : row;
    }),
  );
}

/** The record as its policy reads it (owner, project, public flag). */
export function ownedRecordOf(row: OwnedRecordRow): OwnedRecord {
  return {
    uniqueId: row.uniqueId,
    owner: { uniqueId: row.ownerId },
    project: row.projectMfid === null ? null : { uniqueId: row.projectMfid },
    instrument: row.instrumentMfid ? { uniqueId: row.instrumentMfid } : null,
    public: row.public,
  };
}
