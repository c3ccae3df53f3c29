import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';

/**
 * What a logical backup needs to know of the live schema, read from the PostgreSQL catalog (so
 * tables added by later migrations are included without listing them anywhere).
 */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

export interface TableShape {
  name: string;
  /** stored columns in table order (generated columns are recomputed, never dumped) */
  columns: string[];
  /** the primary key: rows are dumped in its order, so equal data gives equal files */
  primaryKey: string[];
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The tables of the current schema (not the migrations table) in foreign-key order: parents first. */
export async function tablesInOrder(em: EntityManager): Promise<TableShape[]> {
  const tables = await rawQuery<{ name: string }>(
    em,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname <> ?
     order by c.relname`,
    [MIGRATIONS_TABLE],
  );
  const columns = await rawQuery<{ table: string; column: string }>(
    em,
    `select c.relname as table, a.attname as column
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by c.relname, a.attnum`,
  );
  const keys = await rawQuery<{ table: string; column: string }>(
    em,
    `select c.relname as table, a.attname as column
     from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where n.nspname = current_schema() and i.indisprimary
     order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const edges = await rawQuery<{ child: string; parent: string }>(
    em,
    `select cc.relname as child, pc.relname as parent
     from pg_constraint k join pg_class cc on cc.oid = k.conrelid join pg_class pc on pc.oid = k.confrelid
     join pg_namespace n on n.oid = cc.relnamespace
     where k.contype = 'f' and n.nspname = current_schema()`,
  );
  const shapes = tables.map((t) => ({
    name: t.name,
    columns: columns.filter((c) => c.table === t.name).map((c) => c.column),
    primaryKey: keys.filter((k) => k.table === t.name).map((k) => k.column),
  }));
  return topological(shapes, edges);
}

function topological(shapes: TableShape[], edges: { child: string; parent: string }[]): TableShape[] {
  const self = edges.find((e) => e.child === e.parent);
  if (self) {
    // rows of such a table would have to be ordered parent-first; no table has one today
    throw new Error(`table ${self.child} references itself: the logical backup does not order its rows`);
  }
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  let remaining = shapes;
  while (remaining.length) {
    const ready = remaining.filter((s) =>
      edges.every((e) => e.child !== s.name || placed.has(e.parent) || e.parent === s.name),
    );
    if (!ready.length)
      throw new Error(`foreign keys form a cycle among ${remaining.map((s) => s.name).join(', ')}`);
    for (const s of ready) placed.add(s.name);
    ordered.push(...ready);
    remaining = remaining.filter((s) => !placed.has(s.name));
  }
  return ordered;
}

/** Sequences of the current schema and where they stand (`value` null: never used). */
export async function sequenceStates(em: EntityManager): Promise<{ name: string; value: string | null }[]> {
  return rawQuery(
    em,
    `select sequencename as name, last_value::text as value from pg_sequences
     where schemaname = current_schema() order by sequencename`,
  );
}
