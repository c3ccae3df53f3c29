import type { RequestContext } from '../../core/context';
import { jsonMembersSql, jsonObjectSql, type JsonMember } from '../../core/db/json-sql';
import type { Projection } from '../../core/db/page';
import { textKeys } from './owned-record.fields';
import { legacyTail, type LegacyRecordOptions, type RecordWire } from './owned-record.legacy';

/**
 * The legacy JSON of dataset and sample lists, built by PostgreSQL (docs/performance.md, "REST
 * lists"): the same bytes as `toLegacyRecord` and `res.json` write for a list item, without
 * entities. The optional keys (`owner`, `scientific_metadata`, `links`) come last in a record;
 * they are written by the same code as on the entity path and spliced in.
 */

/** A row of a page projected by {@link recordJsonProjection}. */
export interface RecordJsonRow {
  _id: string;
  _owner: string;
  _json: string;
}

/** What a kind adds to its records' JSON, over the page alias and its joins. */
export interface RecordJsonSpec {
  /** its own members, written after the project's */
  own: readonly JsonMember[];
  /** the joins its own members read */
  joins?: string;
  /** the column `project_id` shows when the record has no project */
  projectIdFallback?: string;
}

/** The column of a text field, as the ORM's naming strategy names it (`datasetName` -> `dataset_name`). */
const column = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A lateral join `alias` of the row of `table` whose `unique_id` is `key`, computing `columns`
 * (text expressions over `t`, by name) once per row it finds. `offset 0` keeps it a subquery, so
 * PostgreSQL can memoize it by key: a page's rows share a few projects and instruments, whose
 * JSON is then built once each rather than once per record.
 */
export function lateralJson(
  alias: string,
  table: string,
  key: string,
  columns: Record<string, string>,
): string {
  const select = Object.entries(columns)
    .map(([name, expr]) => `${expr} as ${name}`)
    .join(', ');
  return `left join lateral (select ${select} from ${table} t where t.unique_id = ${key} offset 0) ${alias} on true`;
}

/** `to_json` of a text expression, as text (null stays null). */
export const jsonText = (expr: string) => `to_json(${expr})::text`;

/**
 * The projection of a page of records (alias `a`) to their list JSON, as `toLegacyRecord` writes
 * it with `capabilities` null and no optional keys; the owner's id rides along for them.
 */
export function recordJsonProjection<K extends string>(
  wire: RecordWire<K>,
  a: string,
  spec: RecordJsonSpec,
): Projection {
  const fallback = spec.projectIdFallback ? `${jsonText(spec.projectIdFallback)}, ` : '';
  const members: JsonMember[] = [
    ['unique_id', { value: `${a}.unique_id` }],
    ...textKeys(wire.text).map((k) => [wire.text[k].wire, { value: `${a}.${column(k)}` }] as const),
    ['public', { boolean: `${a}.public` }],
    ['owner_orcid', { value: `${a}.owner_id` }],
    ['project_id', { json: `coalesce(_p.slug, ${fallback}'null')` }],
    {
      members: '_p.members',
      otherwise: [
        ['project_mfid', { constant: null }],
        ['project', { constant: null }],
      ],
    },
    ...spec.own,
    ['creation_time', { time: `${a}.creation_time` }],
    ['modification_time', { time: `${a}.modification_time` }],
    ['resource_type', { constant: wire.type }],
    ['capabilities', { constant: null }],
  ];
  const project = lateralJson('_p', 'project', `${a}.project_mfid`, {
    slug: jsonText('t.project_id'),
    members: jsonMembersSql([
      ['project_mfid', { value: 't.unique_id' }],
      [
        'project',
        {
          json: jsonObjectSql([
            ['unique_id', { value: 't.unique_id' }],
            ['project_id', { value: 't.project_id' }],
            ['title', { value: 't.title' }],
          ]),
        },
      ],
    ]),
  });
  return {
    columns: `${a}.owner_id as _owner, ${jsonObjectSql(members)} as _json`,
    joins: `${project} ${spec.joins ?? ''}`,
  };
}

/** The records' JSON with the optional keys `opts` asks for, placed as `toLegacyRecord` places them. */
export async function recordJsonItems(
  ctx: RequestContext,
  rows: RecordJsonRow[],
  opts: LegacyRecordOptions,
): Promise<string[]> {
  if (!opts.includeOwner && !opts.includeMetadata && !opts.includeLinks && !opts.includeDeletion) {
    return rows.map((r) => r._json);
  }
  return Promise.all(
    rows.map(async (r) => {
      const tail = JSON.stringify(await legacyTail(ctx, r._id, r._owner, opts));
      return tail === '{}' ? r._json : `${r._json.slice(0, -1)},${tail.slice(1)}`;
    }),
  );
}
