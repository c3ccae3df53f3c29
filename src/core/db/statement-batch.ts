import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from './raw';

/** One request's read statements that may share a round trip with others (see statementBatch). */
export interface StatementBatch {
  /**
   * Rows of `sql` (a select): run alone, as `rawQuery` would; merged with the other statements
   * asked for in the same tick, as JSON (`to_jsonb` of each row). Rows come in no particular
   * order: a caller that needs one sorts by a column of its own. Only for rows whose columns
   * survive JSON: text, booleans, numbers within 2^53, timestamps (as text, which `em.map`
   * reads), json; never bytea or bigint.
   */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

interface Part {
  sql: string;
  params: unknown[];
}

/**
 * Per request: the loaders of one GraphQL execution wave (owners, projects, instruments,
 * keywords, first thumbnails, file counts of a page…) each dispatch their batch in the same
 * tick; their statements then go to the database as one `union all` instead of one each.
 */
export function statementBatch(em: EntityManager): StatementBatch {
  const loader = new DataLoader<Part, Record<string, unknown>[]>(
    async (parts) => {
      if (parts.length === 1)
        return [await rawQuery<Record<string, unknown>>(em, parts[0].sql, parts[0].params)];
      const sql = parts
        .map((p, i) => `select ${i} as part, to_jsonb(x) as row from (${p.sql}) x`)
        .join(' union all ');
      const rows = await rawQuery<{ part: number; row: Record<string, unknown> }>(
        em,
        sql,
        parts.flatMap((p) => p.params),
      );
      const byPart = parts.map((): Record<string, unknown>[] => []);
      for (const r of rows) byPart[r.part].push(r.row);
      return byPart;
    },
    { cache: false },
  );
  return {
    query: <T>(sql: string, params: unknown[] = []) => loader.load({ sql, params }) as Promise<T[]>,
  };
}
