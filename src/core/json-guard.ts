import { AppError, type FieldProblem } from './errors';

/**
 * The deepest nesting accepted in JSON input (request bodies, GraphQL variables, scientific
 * metadata): deeper documents are refused before anything recursive (JSON.stringify, jsonb)
 * sees them.
 */
export const MAX_JSON_DEPTH = 100;

const NUL = '\u0000';

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

function pathOf(frame: Frame, root: string): string {
  const keys: string[] = [];
  for (let f = frame; f.parent; f = f.parent) keys.push(f.key);
  keys.reverse();
  const shown = keys.length > 6 ? [...keys.slice(0, 5), '…'] : keys;
  if (!root) return shown.join('.') || 'body';
  return [root, ...shown].join('.');
}

/**
 * The first problem of a JSON value that PostgreSQL or the service could not store: nesting
 * deeper than `maxDepth`, or a NUL character (U+0000) in a string or a key (PostgreSQL's text
 * and jsonb cannot hold it). `root` names the value ('' for a request body: fields are then
 * named by their keys). Iterative, so any depth is safe to inspect.
 */
export function jsonProblem(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): FieldProblem | null {
  const stack: Frame[] = [{ value, depth: 0, key: '', parent: null }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const v = frame.value;
    if (typeof v === 'string') {
      if (v.includes(NUL))
        return { field: pathOf(frame, root), message: 'must not contain NUL characters (\\u0000)' };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (frame.depth >= maxDepth) {
      return { field: pathOf(frame, root), message: `is nested too deeply (at most ${maxDepth} levels)` };
    }
    for (const [key, child] of Object.entries(v)) {
      const next: Frame = { value: child, depth: frame.depth + 1, key, parent: frame };
      if (key.includes(NUL)) {
        return { field: pathOf(next, root), message: 'keys must not contain NUL characters (\\u0000)' };
      }
      stack.push(next);
    }
  }
  return null;
}

/** Throws a validation error naming the field when {@link jsonProblem} finds one. */
export function assertStorableJson(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): void {
  const problem = jsonProblem(value, root, maxDepth);
  if (problem) throw new AppError('VALIDATION', `${problem.field}: ${problem.message}`, [problem]);
}
