import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { AppError, validationError, type FieldProblem } from '../errors';
import { ECHOED, MESSAGES, REFUSED } from './schema';

/**
 * Input checking of the REST routes from their schemas: query strings are decoded by the declared
 * type of each parameter, bodies checked as they are; the problems are answered with the
 * project's 422 body (`{detail, code: "BAD_USER_INPUT", fields}`), worded as the clients know them.
 */
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  verbose: true,
  strict: false,
  // a JSON body's 1e400 parses as Infinity: not an integer (nor a number)
  strictNumbers: true,
});
ajv.addKeyword({ keyword: ECHOED, schemaType: 'boolean' });
ajv.addKeyword({ keyword: REFUSED, schemaType: 'string' });
ajv.addKeyword({ keyword: MESSAGES, schemaType: 'object' });
// the one rule for a date-time on the wire: a calendar date first, and a time JavaScript can read
ajv.addFormat('date-time', { type: 'string', validate: isIsoDateTime });

/** Whether `value` is an ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T10:00:00Z`). */
export function isIsoDateTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(new Date(value).getTime());
}

export function compile(schema: TSchema): ValidateFunction {
  return ajv.compile(schema);
}

interface PropertySchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
}

/** Booleans arrive as Python's `True`/`False` or JavaScript's `true`/`false` (also 1/0). */
export function parseBool(name: string, raw: string): boolean {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw validationError(name, `must be a boolean (true/false), got "${raw}"`);
}

const range = (schema: PropertySchema): string =>
  `must be between ${schema.minimum ?? Number.MIN_SAFE_INTEGER} and ${schema.maximum ?? Number.MAX_SAFE_INTEGER}`;

function last(v: unknown): string | undefined {
  const value: unknown = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The query parameters a schema declares, decoded from Express's strings: the last value of a
 * repeated parameter; every non-empty value of an array parameter; an empty integer or boolean
 * counts as absent. An undeclared parameter is a 422 naming it (every one, in the order sent):
 * a filter the route does not know would otherwise answer a wrong list (the 3.2 client relies on
 * this refusal, `extra_forbidden` in its words).
 */
export function decodeQuery(
  properties: Record<string, PropertySchema>,
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const unknown = Object.keys(raw).filter((name) => !Object.hasOwn(properties, name));
  if (unknown.length) {
    const problems: FieldProblem[] = unknown.slice(0, 20).map((name) => ({
      field: name.slice(0, 100),
      message: 'is not a query parameter of this route',
    }));
    throw new AppError('VALIDATION', problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
  }
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const v = raw[name];
    if (v === undefined) continue;
    if (schema.type === 'array') {
      out[name] = (Array.isArray(v) ? (v as unknown[]) : [v]).filter(
        (s): s is string => typeof s === 'string' && s !== '',
      );
      continue;
    }
    const value = last(v);
    if (value === undefined) continue;
    if (schema.type === 'integer') {
      if (value === '') continue;
      if (!/^-?\d+$/.test(value)) throw validationError(name, `must be an integer, got "${value}"`);
      // past 2^53 the digits no longer make the number (10^309 is Infinity): refused here, not
      // left to a schema that might declare no maximum
      const n = Number(value);
      if (!Number.isSafeInteger(n)) throw validationError(name, range(schema));
      out[name] = n;
    } else if (schema.type === 'boolean') {
      if (value !== '') out[name] = parseBool(name, value);
    } else out[name] = value;
  }
  return out;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  boolean: 'must be true or false',
  integer: 'must be an integer',
  number: 'must be a number',
  object: 'must be a JSON object',
  array: 'must be a list',
};

function fieldOf(e: ErrorObject, where: string): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'additionalProperties' || e.keyword === 'required') {
    const extra = (e.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty;
    path.push(extra ?? (e.params as { missingProperty: string }).missingProperty);
  }
  // a problem with an item is reported on its list, as clients know it
  const item = path.findIndex((s) => /^\d+$/.test(s));
  if (item >= 0) path.splice(item);
  return path.length ? path.join('.') : where;
}

function choices(values: unknown[]): string {
  const words = values.map(String);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join('');
}

/** The message clients see for one schema violation. */
function message(e: ErrorObject): string {
  const schema = e.parentSchema as PropertySchema & {
    minLength?: number;
    items?: PropertySchema;
    [MESSAGES]?: Record<string, string>;
  };
  const custom = schema[MESSAGES]?.[e.keyword];
  if (custom) return custom;
  switch (e.keyword) {
    case 'type': {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? ''];
      if (e.data === null && types[0] === 'string') return 'is required';
      if (/\/\d+$/.test(e.instancePath) && types[0] === 'string') return 'must be a list of strings';
      if (types[0] === 'array' && schema.items?.type === 'string') return 'must be a list of strings';
      return TYPE_WORDS[types[0] ?? ''] ?? `must be of type ${types.join(' or ')}`;
    }
    case 'required':
      return 'is required';
    case 'minLength':
      return schema.minLength === 1 ? 'is required' : `must be at least ${schema.minLength} characters`;
    case 'maxLength':
      return `must be at most ${(e.params as { limit: number }).limit} characters`;
    case 'minimum':
    case 'maximum':
      return range(schema);
    case 'enum':
      return `must be ${choices(schema.enum ?? [])}`;
    case 'additionalProperties':
      return 'is not a field that can be set here';
    case 'not':
      return (schema as Record<string, string>)[REFUSED] ?? 'is not accepted here';
    case 'maxItems':
      return `must have at most ${(e.params as { limit: number }).limit} items`;
    default:
      return e.message ?? 'is not valid';
  }
}

/**
 * Throws the validation error for the problems of `validate` over `value`: unknown and refused
 * fields are reported together (in the order sent), otherwise the first other problem.
 */
export function check(validate: ValidateFunction, value: unknown, where: string): void {
  if (validate(value)) return;
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const fieldErrors = errors.filter((e) => e.keyword === 'additionalProperties' || e.keyword === 'not');
  const reported = fieldErrors.length ? fieldErrors : errors.slice(0, 1);
  const problems: FieldProblem[] = reported.map((e) => ({
    field: fieldOf(e, where),
    message: message(e),
  }));
  if (problems.length === 0) problems.push({ field: where, message: 'is not valid' });
  throw new AppError('VALIDATION', problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
}

/** Drops the fields a body schema marks as echoed (read-only fields a client sends back). */
export function dropEchoed(
  properties: Record<string, Record<string, unknown>>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([name]) => !(name in properties && properties[name][ECHOED])),
  );
}
