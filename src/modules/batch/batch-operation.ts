import { validationError } from '../../core/errors';
import { checkDocument, isPlainObject, type MetadataDocument } from '../metadata-store/metadata-document';
import { checkTextFields, UPDATABLE, type TextField } from '../dataset/dataset.fields';
import {
  isGrantable,
  PRINCIPAL_TYPES,
  type Action,
  type GrantablePermission,
  type PrincipalType,
} from '../permission/permission';

/** The operations of a batch edit (one per batch), by `kind`. */
export const BATCH_KINDS = [
  'add_keyword',
  'remove_keyword',
  'set_field',
  'merge_metadata',
  'grant',
  'set_public',
] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

/** A validated batch operation (a grant's principal already resolved to its canonical id). */
export type BatchOperation =
  | { kind: 'add_keyword' | 'remove_keyword'; keyword: string }
  | { kind: 'set_field'; field: TextField; value: string | null }
  | { kind: 'merge_metadata'; metadata: MetadataDocument }
  | {
      kind: 'grant';
      principalType: PrincipalType;
      principalId: string;
      principalName: string | null;
      permission: GrantablePermission;
    }
  | { kind: 'set_public'; public: boolean };

/** An operation as a client sends it (REST: snake_case; GraphQL: the same fields, camelCase). */
export interface BatchOperationInput {
  kind?: unknown;
  keyword?: unknown;
  field?: unknown;
  value?: unknown;
  metadata?: unknown;
  principalType?: unknown;
  principal?: unknown;
  permission?: unknown;
  public?: unknown;
}

/** The permission each operation needs on every target (docs/access-control.md). */
export const BATCH_ACTION: Record<BatchKind, Action> = {
  add_keyword: 'contribute',
  remove_keyword: 'contribute',
  merge_metadata: 'contribute',
  set_field: 'update',
  grant: 'manage',
  set_public: 'manage',
};

/** The wire names of the fields a batch may set (those a single update may set, but the public flag). */
export const BATCH_FIELDS = Object.values(UPDATABLE).map((f) => f.wire);

/** The field whose wire name is `wire`. */
function fieldOf(wire: unknown): TextField {
  const entry = Object.entries(UPDATABLE).find(([, spec]) => spec.wire === wire);
  if (!entry) throw validationError('operation.field', `must be one of ${BATCH_FIELDS.join(', ')}`);
  return entry[0] as TextField;
}

/**
 * Checks an operation's shape and values (everything but a grant's principal, which the service
 * resolves): 422 naming the field.
 */
export function checkOperation(
  input: unknown,
  normalizeKeyword: (raw: unknown) => string,
):
  | Exclude<BatchOperation, { kind: 'grant' }>
  | { kind: 'grant'; principalType: PrincipalType; principal: string; permission: GrantablePermission } {
  if (!isPlainObject(input)) throw validationError('operation', 'must be an object with a kind');
  const op = input as BatchOperationInput;
  const kind = op.kind;
  if (typeof kind !== 'string' || !(BATCH_KINDS as readonly string[]).includes(kind)) {
    throw validationError('operation.kind', `must be one of ${BATCH_KINDS.join(', ')}`);
  }
  const allowed: Record<BatchKind, string[]> = {
    add_keyword: ['keyword'],
    remove_keyword: ['keyword'],
    set_field: ['field', 'value'],
    merge_metadata: ['metadata'],
    grant: ['principalType', 'principal', 'permission'],
    set_public: ['public'],
  };
  for (const [key, value] of Object.entries(op)) {
    if (key === 'kind' || value === undefined || value === null) continue;
    if (!allowed[kind as BatchKind].includes(key)) {
      throw validationError(`operation.${key}`, `is not a field of ${kind}`);
    }
  }
  switch (kind as BatchKind) {
    case 'add_keyword':
    case 'remove_keyword':
      return { kind: kind as 'add_keyword', keyword: keywordOf(op.keyword, normalizeKeyword) };
    case 'set_field': {
      const field = fieldOf(op.field);
      if (op.value !== null && op.value !== undefined && typeof op.value !== 'string') {
        throw validationError('operation.value', 'must be a string or null');
      }
      const value = typeof op.value === 'string' ? op.value : null;
      const problems = checkTextFields({ [field]: value });
      if (problems.length) throw validationError('operation.value', problems[0].message);
      if (field === 'datasetName' && (value === null || value.trim() === '')) {
        throw validationError('operation.value', 'a dataset name must not be blank');
      }
      return { kind: 'set_field', field, value };
    }
    case 'merge_metadata': {
      const metadata = checkDocument(op.metadata, 'operation.metadata');
      if (Object.keys(metadata).length === 0) {
        throw validationError('operation.metadata', 'must name at least one top-level key');
      }
      return { kind: 'merge_metadata', metadata };
    }
    case 'grant': {
      const type = op.principalType;
      if (typeof type !== 'string' || !(PRINCIPAL_TYPES as readonly string[]).includes(type)) {
        throw validationError('operation.principal_type', `must be one of ${PRINCIPAL_TYPES.join(', ')}`);
      }
      if (typeof op.principal !== 'string' || op.principal.trim() === '') {
        throw validationError('operation.principal', 'is required: who is granted access');
      }
      if (!isGrantable(op.permission)) {
        throw validationError('operation.permission', 'must be viewer, contributor, editor or admin');
      }
      return {
        kind: 'grant',
        principalType: type as PrincipalType,
        principal: op.principal,
        permission: op.permission,
      };
    }
    case 'set_public':
      if (typeof op.public !== 'boolean') throw validationError('operation.public', 'must be true or false');
      return { kind: 'set_public', public: op.public };
  }
}

function keywordOf(raw: unknown, normalize: (raw: unknown) => string): string {
  try {
    return normalize(raw);
  } catch (err) {
    if (err instanceof Error)
      throw validationError('operation.keyword', err.message.replace(/^keyword:?\s*/, ''));
    throw err;
  }
}

/** The operation as the wire shows it (REST and GraphQL alike: `wireOperation(op)` is stored). */
export function wireOperation(op: BatchOperation): Record<string, unknown> {
  switch (op.kind) {
    case 'add_keyword':
    case 'remove_keyword':
      return { kind: op.kind, keyword: op.keyword };
    case 'set_field':
      return { kind: op.kind, field: UPDATABLE[op.field].wire, value: op.value };
    case 'merge_metadata':
      return { kind: op.kind, metadata: op.metadata };
    case 'grant':
      return {
        kind: op.kind,
        principal_type: op.principalType,
        principal_id: op.principalId,
        principal_name: op.principalName,
        permission: op.permission,
      };
    case 'set_public':
      return { kind: op.kind, public: op.public };
  }
}

/** The stored operation read back (it was written by {@link wireOperation}). */
export function storedOperation(stored: Record<string, unknown>): BatchOperation {
  const s = stored as Record<string, never>;
  switch (stored.kind as BatchKind) {
    case 'add_keyword':
    case 'remove_keyword':
      return { kind: stored.kind as 'add_keyword', keyword: s.keyword };
    case 'set_field':
      return { kind: 'set_field', field: fieldOf(s.field), value: s.value };
    case 'merge_metadata':
      return { kind: 'merge_metadata', metadata: s.metadata };
    case 'grant':
      return {
        kind: 'grant',
        principalType: s.principal_type,
        principalId: s.principal_id,
        principalName: s.principal_name,
        permission: s.permission,
      };
    case 'set_public':
      return { kind: 'set_public', public: s.public };
  }
}

/** JSON with object keys sorted: how values read back from jsonb are compared. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
