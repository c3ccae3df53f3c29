/**
 * A fragment of SQL with its positional `?` parameters, as knex and MikroORM take them.
 * Array parameters expand to comma-separated lists, so write `in (?)` for them and never pass
 * an empty array (use {@link inList}).
 */
export interface Sql {
  sql: string;
  params: unknown[];
}

export const sql = (text: string, ...params: unknown[]): Sql => ({ sql: text, params });

/** `text` as a literal part of a `like ... escape '\'` pattern (`\`, `%` and `_` escaped). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column in (...)`, or a false condition for an empty list. */
export function inList(column: string, values: readonly unknown[]): Sql {
  return values.length === 0 ? sql('false') : sql(`${column} in (?)`, [...values]);
}

export function and(...parts: (Sql | null | undefined)[]): Sql {
  const present = parts.filter((p): p is Sql => !!p);
  if (present.length === 0) return sql('true');
  return { sql: present.map((p) => `(${p.sql})`).join(' and '), params: present.flatMap((p) => p.params) };
}

export function or(...parts: (Sql | null | undefined)[]): Sql {
  const present = parts.filter((p): p is Sql => !!p);
  if (present.length === 0) return sql('false');
  return { sql: present.map((p) => `(${p.sql})`).join(' or '), params: present.flatMap((p) => p.params) };
}
