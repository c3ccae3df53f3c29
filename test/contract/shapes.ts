/**
 * Wire shapes the legacy Python client parses (its pydantic models, reference §4 and §12): a
 * string stays a string (or null), an int stays an int, dicts are objects, lists are arrays.
 * A checker returns the problems it finds; an empty list means the value fits.
 */
export type FieldType =
  | 'string'
  | 'string?'
  | 'integer'
  | 'integer?'
  | 'number'
  | 'boolean'
  | 'boolean?'
  | 'object'
  | 'object?'
  | 'array'
  | 'array?'
  | 'any';
export type Shape = Record<string, FieldType>;
export type Check = (value: unknown, where?: string) => string[];

function fits(type: FieldType, v: unknown): boolean {
  const optional = type.endsWith('?');
  if (optional && (v === null || v === undefined)) return true;
  switch (type.replace('?', '')) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    default:
      return true;
  }
}

/** An object whose listed fields have the given types (other fields are allowed). */
export const obj =
  (shape: Shape): Check =>
  (value, where = 'body') => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return [`${where} is not an object`];
    const record = value as Record<string, unknown>;
    return Object.entries(shape).flatMap(([field, type]) =>
      fits(type, record[field])
        ? []
        : [`${where}.${field} should be ${type}, got ${JSON.stringify(record[field])}`],
    );
  };

const each = (items: unknown[], item: Check, where: string) =>
  items.flatMap((v, i) => item(v, `${where}[${i}]`));

/** A plain JSON array (an envelope here breaks the client). */
export const list =
  (item: Check, opts: { nonEmpty?: boolean } = {}): Check =>
  (value, where = 'body') => {
    if (!Array.isArray(value)) return [`${where} is not a plain list`];
    if (opts.nonEmpty && value.length === 0) return [`${where} is empty`];
    return each(value, item, where);
  };

/** The offset envelope `{items, total}` (no `next_cursor` key). */
export const envO =
  (item: Check): Check =>
  (value, where = 'body') => {
    const base = obj({ items: 'array', total: 'integer' })(value, where);
    if (base.length) return base;
    const record = value as { items: unknown[] };
    if ('next_cursor' in record) return [`${where} has next_cursor on an offset envelope`];
    return each(record.items, item, `${where}.items`);
  };

/** The keyset envelope `{items, next_cursor, total}`. */
export const envK =
  (item: Check): Check =>
  (value, where = 'body') => {
    const base = obj({ items: 'array', total: 'integer' })(value, where);
    if (base.length) return base;
    const record = value as { items: unknown[]; next_cursor?: unknown };
    if (!('next_cursor' in record)) return [`${where} has no next_cursor key`];
    if (record.next_cursor !== null && typeof record.next_cursor !== 'string')
      return [`${where}.next_cursor is not a string`];
    return each(record.items, item, `${where}.items`);
  };

/** Either a plain list or an object with `items` (the client does `result.get('items', result)`). */
export const listOrItems =
  (item: Check): Check =>
  (value, where = 'body') =>
    Array.isArray(value)
      ? each(value, item, where)
      : obj({ items: 'array' })(value, where).length
        ? [`${where} is neither a list nor {items}`]
        : each((value as { items: unknown[] }).items, item, `${where}.items`);

export const nullOr =
  (check: Check): Check =>
  (value, where = 'body') =>
    value === null ? [] : check(value, where);

export const anything: Check = () => [];

export const DATASET = obj({
  unique_id: 'string',
  dataset_name: 'string?',
  public: 'boolean',
  owner_orcid: 'string',
  project_id: 'string?',
  instrument_name: 'string?',
  measurement: 'string?',
  data_type: 'string?',
  session_name: 'string?',
  data_format: 'string?',
  size: 'integer',
  timestamp: 'string?',
  creation_time: 'string',
  modification_time: 'string',
  resource_type: 'string',
  scientific_metadata: 'object?',
  links: 'array?',
  deletion_request: 'object?',
});
export const SAMPLE = obj({
  unique_id: 'string',
  sample_name: 'string?',
  sample_type: 'string?',
  owner_orcid: 'string',
  project_id: 'string?',
  description: 'string?',
  timestamp: 'string?',
  public: 'boolean',
  creation_time: 'string',
  modification_time: 'string',
  resource_type: 'string',
  scientific_metadata: 'object?',
  datasets: 'array?',
  links: 'array?',
  deletion_request: 'object?',
});
export const PROJECT = obj({
  unique_id: 'string',
  project_id: 'string',
  organization: 'string?',
  title: 'string?',
  status: 'string?',
});
export const INSTRUMENT = obj({
  unique_id: 'string',
  instrument_name: 'string',
  public: 'boolean',
  resource_type: 'string',
});
export const PUBLIC_USER = obj({
  unique_id: 'string',
  username: 'string?',
  first_name: 'string?',
  last_name: 'string?',
});
export const USER = obj({
  unique_id: 'string',
  username: 'string?',
  first_name: 'string?',
  last_name: 'string?',
  email: 'string?',
  is_service_account: 'boolean',
  id: 'integer?',
});
export const FILE = obj({
  mfid: 'string',
  dataset_mfid: 'string',
  filename: 'string',
  storage_path: 'string?',
  size: 'integer?',
  sha256_hash: 'string?',
  storage_backend: 'string',
});
export const LINK = obj({
  unique_id: 'string',
  resource_type: 'string',
  name: 'string?',
  relationship: 'string',
  direction: 'string',
});
export const KEYWORD = obj({ keyword: 'string', num_datasets: 'integer' });
export const THUMBNAIL = obj({
  id: 'integer',
  dataset_id: 'string',
  thumbnail_name: 'string?',
  thumbnail_b64str: 'string',
  mime_type: 'string',
});
export const METADATA = obj({ unique_id: 'string', scientific_metadata: 'object' });
export const SEARCH_HIT = obj({
  unique_id: 'string',
  resource_type: 'string',
  name: 'string?',
  owner_orcid: 'string?',
  rank: 'number',
  scientific_metadata: 'object?',
});
/** The fields every reviewed request carries (deletion and join requests). */
const REVIEWED: Shape = {
  id: 'integer',
  requester_id: 'string',
  reason: 'string?',
  status: 'string',
  request_time: 'string',
  review_time: 'string?',
  reviewer_id: 'string?',
  reviewer_notes: 'string?',
};
export const DELETION_REQUEST = obj({ ...REVIEWED, resource_type: 'string', resource_id: 'string' });
export const DELETION_AUDIT = obj({
  id: 'integer',
  resource_id: 'string',
  resource_type: 'string',
  deleted_at: 'string',
});
export const GRAPH = obj({ nodes: 'array', edges: 'array', links: 'array', directed: 'boolean' });
export const KEY_STATUS = obj({ valid: 'boolean', created_at: 'string?', expires_at: 'string?' });
export const MESSAGE = obj({ detail: 'string' });
export const JOIN_REQUEST = obj({ ...REVIEWED, group_name: 'string' });
export const INGESTION_REQUEST = obj({
  id: 'integer',
  status: 'string',
  file_mfid: 'string',
  dataset_mfid: 'string',
  ingestion_class: 'string?',
  time_created: 'string',
  time_completed: 'string?',
  error_message: 'string?',
});
export const ANALYSIS_REQUEST = obj({
  id: 'integer',
  dataset_mfid: 'string',
  analysis: 'string',
  status: 'string',
});
/** a project member as GET /projects/{pid}/users lists it (email included: project admins manage people) */
export const MEMBER = obj({
  unique_id: 'string',
  username: 'string?',
  first_name: 'string?',
  last_name: 'string?',
});
