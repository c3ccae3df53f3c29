import { AppError, validationError, type FieldProblem } from '../errors';

export type Body = Record<string, unknown>;

/**
 * Keeps the accepted fields of a JSON body. Fields in `ignore` are dropped silently (read-only
 * fields clients echo back); fields in `rejectWith` fail with their explanation; any other
 * field fails as unknown. All problems are reported together.
 */
export function pickFields(
  body: Body,
  accepted: readonly string[],
  opts: { ignore?: readonly string[]; rejectWith?: Record<string, string> } = {},
): Body {
  const problems: FieldProblem[] = [];
  const out: Body = {};
  for (const [key, value] of Object.entries(body)) {
    if (accepted.includes(key)) out[key] = value;
    else if (opts.ignore?.includes(key)) continue;
    else if (opts.rejectWith?.[key]) problems.push({ field: key, message: opts.rejectWith[key] });
    else problems.push({ field: key, message: 'is not a field that can be set here' });
  }
  if (problems.length) {
    throw new AppError('VALIDATION', problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
  }
  return out;
}

export function optionalString(body: Body, field: string): string | null | undefined {
  const v = body[field];
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string') throw validationError(field, 'must be a string');
  return v;
}

export function requiredString(body: Body, field: string): string {
  const v = optionalString(body, field);
  if (v === undefined || v === null || v === '') throw validationError(field, 'is required');
  return v;
}

export function optionalBool(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw validationError(field, 'must be true or false');
  return v;
}
