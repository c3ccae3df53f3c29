/**
 * JSON text built by PostgreSQL, byte for byte as `JSON.stringify` writes the same values: no
 * whitespace, keys in the order given, strings escaped as both escape them (`"`, `\`, control
 * characters; nothing else: PostgreSQL text holds no lone surrogates), `true`/`false`, integers
 * as digits. For list pages whose JSON the service sends as PostgreSQL wrote it, without turning
 * rows into objects (docs/performance.md, "REST lists").
 */

/** How one value of a JSON object is written. */
export type JsonPart =
  /** a text expression, written as `to_json` writes it (SQL null: `null`) */
  | { value: string }
  /** an integer expression (`bigint` at most 2^53 in magnitude, as JavaScript holds it) */
  | { integer: string }
  /** a boolean expression */
  | { boolean: string }
  /** a `timestamptz` expression, as `Date#toISOString` writes it (UTC, milliseconds truncated) */
  | { time: string }
  /** an expression that yields JSON text, never SQL null (a nested object) */
  | { json: string }
  /** a constant, as `JSON.stringify` writes it */
  | { constant: unknown };

/**
 * A member of a JSON object, or a run of members computed elsewhere (a lateral join, say): an
 * expression yielding `,"key":value...` (each member led by its comma), or SQL null, in which
 * case `otherwise` is written.
 */
export type JsonMember =
  readonly [key: string, part: JsonPart] | { readonly members: string; readonly otherwise: JsonEntries };

export type JsonEntries = readonly (readonly [key: string, part: JsonPart])[];

/** A constant as an SQL string literal. */
function literal(text: string): string {
  // `?` is a parameter placeholder to knex, even inside a literal
  if (text.includes('?')) throw new Error(`a JSON constant must not contain "?": ${text}`);
  return `'${text.replace(/'/g, "''")}'`;
}

function expression(part: Exclude<JsonPart, { constant: unknown }>): string {
  if ('json' in part) return `(${part.json})`;
  if ('integer' in part) return `coalesce((${part.integer})::text, 'null')`;
  if ('boolean' in part)
    return `(case when ${part.boolean} then 'true' when not ${part.boolean} then 'false' else 'null' end)`;
  if ('time' in part) {
    // `\"`: a literal double quote in a to_char pattern
    return `coalesce(to_char((${part.time}) at time zone 'UTC', '\\"YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\\"'), 'null')`;
  }
  return `coalesce(to_json(${part.value})::text, 'null')`;
}

/** Constant members as their JSON text (`,"key":value...`). */
function constantText(entries: JsonEntries): string {
  return entries
    .map(([key, part]) => {
      if (!('constant' in part)) throw new Error(`\`otherwise\` takes constants only: ${key}`);
      return `,${JSON.stringify(key)}:${JSON.stringify(part.constant)}`;
    })
    .join('');
}

/**
 * The pieces (SQL text expressions) of `members` between `lead` and `trail`; in an object
 * (`lead` = `{`) the first member has no comma, elsewhere each member is led by its comma.
 */
function pieces(members: readonly JsonMember[], lead: string, trail: string): string[] {
  const out: string[] = [];
  let text = lead;
  const flush = () => {
    if (text) out.push(literal(text));
    text = '';
  };
  members.forEach((member, i) => {
    if ('members' in member) {
      if (i === 0 && lead === '{') throw new Error('an object starts with a plain member');
      flush();
      out.push(`coalesce(${member.members}, ${literal(constantText(member.otherwise))})`);
      return;
    }
    const [key, part] = member;
    text += `${i === 0 && lead === '{' ? '' : ','}${JSON.stringify(key)}:`;
    if ('constant' in part) {
      text += JSON.stringify(part.constant);
      return;
    }
    flush();
    out.push(expression(part));
  });
  text += trail;
  flush();
  return out;
}

/** A text expression of `,"key":value...` for the members (their run in a larger object). */
export function jsonMembersSql(members: readonly JsonMember[]): string {
  const all = pieces(members, '', '');
  // one concat: a chain of `||` copies the text built so far at every step
  return all.length ? `concat(${all.join(', ')})` : "''";
}

/** A text expression of the JSON object of `members` (the first one a plain member). */
export function jsonObjectSql(members: readonly JsonMember[]): string {
  return `concat(${pieces(members, '{', '}').join(', ')})`;
}

/** The JSON object of `entries`, or `null` where the SQL condition `isNull` holds. */
export function jsonObjectOrNullSql(isNull: string, entries: JsonEntries): string {
  return `case when ${isNull} then 'null' else ${jsonObjectSql(entries)} end`;
}
