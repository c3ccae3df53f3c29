import { sql, type Sql } from '../../core/db/sql';

const LINK_TABLE = { dataset: 'dataset_link', sample: 'sample_link' } as const;
const OTHER = { dataset: 'sample', sample: 'dataset' } as const;

/** List-filter conditions on the rows of `<type> <alias>` by their links. */
export interface RelativeFilter {
  /** children of this record */
  childrenOf?: string;
  /** parents of this record */
  parentsOf?: string;
  /** with `childrenOf` or `parentsOf`: only links of this relationship type */
  relationshipType?: string;
}

export function relativeConditions(type: 'dataset' | 'sample', alias: string, f: RelativeFilter): Sql[] {
  const table = LINK_TABLE[type];
  const out: Sql[] = [];
  const typed = f.relationshipType !== undefined;
  const typeCondition = typed ? ' and l.relationship_type = ?' : '';
  const withType = (id: string) => (typed ? [id, f.relationshipType] : [id]);
  if (f.childrenOf !== undefined) {
    out.push(
      sql(
        `exists (select 1 from ${table} l where l.child_mfid = ${alias}.unique_id and l.parent_mfid = ?${typeCondition})`,
        ...withType(f.childrenOf),
      ),
    );
  }
  if (f.parentsOf !== undefined) {
    out.push(
      sql(
        `exists (select 1 from ${table} l where l.parent_mfid = ${alias}.unique_id and l.child_mfid = ?${typeCondition})`,
        ...withType(f.parentsOf),
      ),
    );
  }
  return out;
}

/**
 * Rows of `<type> <alias>` associated with the dataset or sample `otherId`, which must pass
 * `otherVisible` (a condition on the other record aliased `o`).
 */
export function associatedWith(
  type: 'dataset' | 'sample',
  alias: string,
  otherId: string,
  otherVisible: Sql,
): Sql {
  const other = OTHER[type];
  return {
    sql: `exists (select 1 from dataset_sample x join ${other} o on o.unique_id = x.${other}_mfid
      where x.${type}_mfid = ${alias}.unique_id and x.${other}_mfid = ? and (${otherVisible.sql}))`,
    params: [otherId, ...otherVisible.params],
  };
}
