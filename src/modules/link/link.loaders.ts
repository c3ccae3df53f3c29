import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { groupLoader } from '../../core/db/loader';
import { sql, type Sql } from '../../core/db/sql';
import { DATASET_ROWS } from '../dataset/dataset-row';
import { SAMPLE_ROWS } from '../sample/sample-row';
import {
  rowsSelect,
  type OwnedRecordRow,
  type RawRow,
  type RecordReader,
} from '../owned-record/owned-record-row';
import type { AccessService } from '../permission/access.service';
import type { RelationshipType } from './relationship';

/** A link seen from one resource (`focus`): the linked resource and how it relates. */
export interface LinkRow {
  focus: string;
  unique_id: string;
  resource_type: 'dataset' | 'sample';
  name: string | null;
  /** source: the linked resource is the parent; target: the child; undirected: associated */
  direction: 'source' | 'target' | 'undirected';
  relationship_type: RelationshipType | null;
}

/**
 * Batched link reads, one statement per batch whatever the number of keys. Linked resources
 * the caller may not read never leave the database.
 */
export function linkLoaders(em: EntityManager, context: () => RequestContext, access: AccessService) {
  const readable = async (ctx: RequestContext, table: 'dataset' | 'sample', alias: string): Promise<Sql> =>
    (await access.readableCondition(ctx, table, alias)) ?? sql('true');

  /**
   * Rows of `reader`'s records reached through `join` (key column -> other column), newest
   * first, without relations (their resolvers read them through the kind's row loader); with
   * `capped`, at most GRAPHQL_LIST_MAX per key (the GraphQL fields of a record).
   */
  const related = <R extends OwnedRecordRow, I extends object>(
    reader: RecordReader<R, I>,
    join: string,
    keyColumn: string,
    otherColumn: string,
    capped = false,
  ) =>
    new DataLoader<string, R[]>(async (keys) => {
      const { alias, table } = reader;
      const ctx = context();
      const visible = await readable(ctx, table, alias);
      const cap = capped ? ctx.config.limits.graphqlListMax : null;
      const source = `select ${alias}.*, j.${keyColumn} as _key${
        cap ? `, row_number() over (partition by j.${keyColumn} order by ${alias}.unique_id desc) as _n` : ''
      } from ${join} j
         join ${table} ${alias} on ${alias}.unique_id = j.${otherColumn}
         where j.${keyColumn} in (?) and (${visible.sql})`;
      const from = `(${cap ? `select * from (${source}) x where x._n <= ${cap}` : source}) ${alias}`;
      const rows = await rawQuery<RawRow & { _key: string }>(
        em,
        `${rowsSelect(reader, {}, from, `${alias}._key`)} order by ${alias}.unique_id desc`,
        [[...keys], ...visible.params],
      );
      const groups = new Map<string, R[]>();
      for (const raw of rows) groups.set(raw._key, [...(groups.get(raw._key) ?? []), reader.row(raw)]);
      return keys.map((k) => groups.get(k) ?? []);
    });

  /**
   * The link objects of resources, in their order (parents, children, associations): the
   * `take` after the first `skip` of each resource.
   */
  const linksOf = (window: (ctx: RequestContext) => { skip: number; take: number }) =>
    groupLoader<string, LinkRow>(
      async (ids) => {
        const ctx = context();
        const [d, s] = await Promise.all([readable(ctx, 'dataset', 'd'), readable(ctx, 'sample', 's')]);
        const keys = [...ids];
        const { skip, take } = window(ctx);
        const rows = await rawQuery<LinkRow & { _n?: unknown }>(
          em,
          `select * from (select x.focus, x.linked as unique_id, x.linked_type as resource_type,
           coalesce(d.dataset_name, s.sample_name) as name, x.direction, x.relationship_type,
           row_number() over (partition by x.focus order by x.ord, x.linked_type, x.linked) as _n
         from (
           select l.child_mfid as focus, l.parent_mfid as linked, 'dataset' as linked_type,
             'source' as direction, l.relationship_type, 1 as ord from dataset_link l where l.child_mfid in (?)
           union all select l.parent_mfid, l.child_mfid, 'dataset', 'target', l.relationship_type, 2
             from dataset_link l where l.parent_mfid in (?)
           union all select l.child_mfid, l.parent_mfid, 'sample', 'source', l.relationship_type, 1
             from sample_link l where l.child_mfid in (?)
           union all select l.parent_mfid, l.child_mfid, 'sample', 'target', l.relationship_type, 2
             from sample_link l where l.parent_mfid in (?)
           union all select a.dataset_mfid, a.sample_mfid, 'sample', 'undirected', null, 3
             from dataset_sample a where a.dataset_mfid in (?)
           union all select a.sample_mfid, a.dataset_mfid, 'dataset', 'undirected', null, 3
             from dataset_sample a where a.sample_mfid in (?)
         ) x
         left join dataset d on x.linked_type = 'dataset' and d.unique_id = x.linked
         left join sample s on x.linked_type = 'sample' and s.unique_id = x.linked
         where (d.unique_id is not null and (${d.sql})) or (s.unique_id is not null and (${s.sql}))
         ) y where y._n > ? and y._n <= ? order by y.focus, y._n`,
          [keys, keys, keys, keys, keys, keys, ...d.params, ...s.params, skip, skip + take],
        );
        return rows.map(({ _n: _drop, ...row }) => row);
      },
      (row) => row.focus,
    );

  return {
    /** the link objects of datasets and samples, by resource MFID: at most MAX_PAGE_SIZE each */
    byResource: linksOf((ctx) => ({ skip: 0, take: ctx.config.limits.maxPageSize })),
    /** a page of them: `take` after the first `skip` */
    page: (skip: number, take: number) => linksOf(() => ({ skip, take })),
    datasetParents: related(DATASET_ROWS, 'dataset_link', 'child_mfid', 'parent_mfid'),
    datasetChildren: related(DATASET_ROWS, 'dataset_link', 'parent_mfid', 'child_mfid'),
    sampleParents: related(SAMPLE_ROWS, 'sample_link', 'child_mfid', 'parent_mfid'),
    sampleChildren: related(SAMPLE_ROWS, 'sample_link', 'parent_mfid', 'child_mfid'),
    samplesOfDataset: related(SAMPLE_ROWS, 'dataset_sample', 'dataset_mfid', 'sample_mfid'),
    datasetsOfSample: related(DATASET_ROWS, 'dataset_sample', 'sample_mfid', 'dataset_mfid'),
    /** the same lists for the GraphQL fields of a record: at most GRAPHQL_LIST_MAX each */
    capped: {
      byResource: linksOf((ctx) => ({ skip: 0, take: ctx.config.limits.graphqlListMax })),
      datasetParents: related(DATASET_ROWS, 'dataset_link', 'child_mfid', 'parent_mfid', true),
      datasetChildren: related(DATASET_ROWS, 'dataset_link', 'parent_mfid', 'child_mfid', true),
      sampleParents: related(SAMPLE_ROWS, 'sample_link', 'child_mfid', 'parent_mfid', true),
      sampleChildren: related(SAMPLE_ROWS, 'sample_link', 'parent_mfid', 'child_mfid', true),
      samplesOfDataset: related(SAMPLE_ROWS, 'dataset_sample', 'dataset_mfid', 'sample_mfid', true),
      datasetsOfSample: related(DATASET_ROWS, 'dataset_sample', 'sample_mfid', 'dataset_mfid', true),
    },
  };
}
