import type { RequestContext } from '../../core/context';
import { jsonMembersSql, jsonObjectSql, type JsonMember } from '../../core/db/json-sql';
import type { Projection } from '../../core/db/page';
import { textKeys } from './owned-record.fields';
import { legacyExtras, legacyTail, type LegacyRecordOptions, type RecordWire } from './owned-record.legacy';
import type { JsonRow } from './owned-record-row';

/**
 * The legacy JSON of dataset and sample lists written by PostgreSQL (docs/performance.md, "REST
 * lists") from the rows themselves: over the row projection's columns (owned-record-row.ts,
 * alias `r`), the bytes `toLegacyRecord` and `res.json` write for the same rows, without making
 * them objects first. The optional keys (`owner`, `scientific_metadata`, `links`) come last in a
 * record; they are written by the same code as for rows and spliced in.
 */

/** The column of a text field (`datasetName` -> `dataset_name`), as the projection selects it. */
const column = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A lateral join `alias` computing `columns` (JSON text expressions, by name) when `present`
 * holds, else no row (every column null). It reads only columns of the row that decide them (a
 * project's, an instrument's), so PostgreSQL memoizes it: a page's few projects and instruments
 * are written once each, not once per record.
 */
export function lateralJson(alias: string, present: string, columns: Record<string, string>): string {
  const select = Object.entries(columns)
    .map(([name, expr]) => `${expr} as ${name}`)
    .join(', ');
  return `left join lateral (select ${select} where ${present} offset 0) ${alias} on true`;
}

/** `to_json` of a text expression, as text (null stays null). */
export const jsonText = (expr: string) => `to_json(${expr})::text`;

/** A time column of the projection (ISO text: digits and punctuation) as a JSON string. */
const quoted = (column: string) => ({ json: `'"' || ${column} || '"'` });

/**
 * What a list's JSON rows select of the projected row `r`: the record as `_json` (as
 * `toLegacyRecord` writes it with `capabilities` null and no optional keys, `own.members` after
 * the project's, over `own.joins`) and, with `owner`, the owner.
 */
export function recordJsonSelect<K extends string>(
  wire: RecordWire<K>,
  own: { members: readonly JsonMember[]; joins?: string },
  owner: boolean,
): Projection {
  const json = jsonObjectSql([
    ['unique_id', { value: 'r._id' }],
    ...textKeys(wire.text).map((k) => [wire.text[k].wire, { value: `r.${column(k)}` }] as const),
    ['public', { boolean: 'r.public' }],
    ['owner_orcid', { value: 'r.owner_id' }],
    // a project's slug, once per project; a legacy record's display value
    ['project_id', { json: `coalesce(_pj.slug, ${jsonText('r._project_id')}, 'null')` }],
    {
      members: '_pj.m',
      otherwise: [
        ['project_mfid', { constant: null }],
        ['project', { constant: null }],
      ],
    },
    ...own.members,
    ['creation_time', quoted('r.creation_time')],
    ['modification_time', quoted('r.modification_time')],
    ['resource_type', { constant: wire.type }],
    ['capabilities', { constant: null }],
  ]);
  const project = lateralJson('_pj', 'r._project_mfid is not null', {
    slug: jsonText('r._project_slug'),
    m: jsonMembersSql([
      ['project_mfid', { value: 'r._project_mfid' }],
      [
        'project',
        {
          json: jsonObjectSql([
            ['unique_id', { value: 'r._project_mfid' }],
            ['project_id', { value: 'r._project_slug' }],
            ['title', { value: 'r._project_title' }],
          ]),
        },
      ],
    ]),
  });
  return {
    columns: `${json} as _json${owner ? ', r._owner' : ''}`,
    joins: `${project} ${own.joins ?? ''}`,
  };
}

/** The records' JSON with the optional keys `opts` asks for, placed as `toLegacyRecord` places them. */
export async function recordJsonItems(
  ctx: RequestContext,
  rows: readonly JsonRow[],
  opts: LegacyRecordOptions,
): Promise<string[]> {
  if (!opts.includeOwner && !opts.includeMetadata && !opts.includeLinks) return rows.map((r) => r._json);
  const extras = await legacyExtras(
    ctx,
    rows.map((r) => r._id),
    opts,
  );
  return rows.map((r, i) => {
    const tail = JSON.stringify(legacyTail(ctx, r._owner, opts, extras[i]));
    return tail === '{}' ? r._json : `${r._json.slice(0, -1)},${tail.slice(1)}`;
  });
}
