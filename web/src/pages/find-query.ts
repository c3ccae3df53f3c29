import type {
  DatasetFilterInput,
  DatasetOrderField,
  DatasetOrderInput,
  MetadataOperator,
} from '../gql/graphql';

/** The search a Find page shows, read from and written to the URL so it can be bookmarked. */
export interface Search {
  q: string;
  project: string;
  instrument: string;
  measurement: string;
  keyword: string;
  /** a keyword facet's value: the whole keyword (`keyword` is a substring) */
  keywordExact: string;
  dataType: string;
  owner: string;
  visibility: '' | 'public' | 'private';
  conditions: Condition[];
  /** the sorted column ('' = newest first) and its direction */
  sort: '' | DatasetOrderField;
  dir: 'asc' | 'desc';
}

export const SORTABLE: DatasetOrderField[] = [
  'datasetName',
  'measurement',
  'dataType',
  'creationTime',
  'modificationTime',
  'size',
];

export interface Condition {
  path: string;
  op: MetadataOperator;
  value: string;
}

export const OPERATORS: { op: MetadataOperator; label: string }[] = [
  { op: 'eq', label: 'equals' },
  { op: 'ne', label: 'does not equal' },
  { op: 'gt', label: '>' },
  { op: 'gte', label: '≥' },
  { op: 'lt', label: '<' },
  { op: 'lte', label: '≤' },
  { op: 'contains', label: 'contains' },
  { op: 'exists', label: 'exists' },
];

const FIELDS = [
  'q',
  'project',
  'instrument',
  'measurement',
  'keyword',
  'keywordExact',
  'dataType',
  'owner',
] as const;

export function readSearch(query: URLSearchParams): Search {
  const visibility = query.get('visibility');
  const s: Search = {
    q: '',
    project: '',
    instrument: '',
    measurement: '',
    keyword: '',
    keywordExact: '',
    dataType: '',
    owner: '',
    visibility: visibility === 'public' || visibility === 'private' ? visibility : '',
    sort: SORTABLE.find((f) => f === query.get('sort')) ?? '',
    dir: query.get('dir') === 'desc' ? 'desc' : 'asc',
    conditions: query.getAll('m').flatMap((m) => {
      const [path, op, ...rest] = m.split('|');
      const known = OPERATORS.find((o) => o.op === op);
      return path && known ? [{ path, op: known.op, value: rest.join('|') }] : [];
    }),
  };
  for (const f of FIELDS) s[f] = query.get(f) ?? '';
  return s;
}

export function searchUrl(s: Search): string {
  const q = new URLSearchParams();
  for (const f of FIELDS) if (s[f].trim()) q.set(f, s[f].trim());
  if (s.visibility) q.set('visibility', s.visibility);
  if (s.sort) {
    q.set('sort', s.sort);
    q.set('dir', s.dir);
  }
  for (const c of s.conditions) if (c.path.trim()) q.append('m', `${c.path.trim()}|${c.op}|${c.value}`);
  const text = q.toString();
  return text ? `/?${text}` : '/';
}

/** A typed value: numbers, true/false and null as JSON; anything else (or "quoted") as text. */
export function typedValue(text: string): unknown {
  const t = text.trim();
  if (
    /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t) ||
    t === 'true' ||
    t === 'false' ||
    t === 'null' ||
    t.startsWith('"')
  ) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

/** The shape of an MFID (slugs never take it). */
const MFID = /^[0-9a-hjkmnp-tv-z]{25}[048cgmrw]$/;

/** The list's order: null for the default, newest first. */
export function toOrder(s: Search): DatasetOrderInput | null {
  return s.sort ? { field: s.sort, direction: s.dir } : null;
}

export function toFilter(s: Search): DatasetFilterInput {
  const f: DatasetFilterInput = {};
  if (s.q.trim()) f.text = s.q.trim();
  // the URL names a project by slug (readable) or, from a facet of a project you are not in, by MFID
  if (s.project) {
    if (MFID.test(s.project)) f.projectMfid = s.project;
    else f.projectId = s.project;
  }
  if (s.instrument) f.instrumentMfid = s.instrument;
  if (s.measurement) f.measurement = s.measurement;
  if (s.keyword) f.keyword = s.keyword;
  if (s.keywordExact) f.keywordExact = s.keywordExact;
  if (s.dataType) f.dataType = s.dataType;
  if (s.owner) f.ownerOrcid = s.owner;
  if (s.visibility) f.public = s.visibility === 'public';
  if (s.conditions.length)
    f.metadata = s.conditions.map((c) =>
      c.op === 'exists' ? { path: c.path, op: c.op } : { path: c.path, op: c.op, value: typedValue(c.value) },
    );
  return f;
}
