import { assertNoProblems, type FieldProblem } from '../../core/errors';
import {
  metadataCondition,
  METADATA_OPERATORS,
  type MetadataCondition,
} from '../metadata-store/metadata.filter';
import type { DatasetFilter } from '../dataset/dataset.query';
import { EVENT_TYPES } from '../outbox/domain-event';
import type { ReceiverAddresses } from './receiver-address';

/** A subscription as a client sends it (REST snake_case and GraphQL map onto this). */
export interface WebhookInput {
  url?: unknown;
  description?: unknown;
  eventTypes?: unknown;
  projectId?: unknown;
  resourceId?: unknown;
  search?: unknown;
  active?: unknown;
}

/** A saved dataset search: what a new or changed dataset must match to be delivered. */
export interface SavedSearch {
  keyword?: string;
  measurement?: string;
  instrument_name?: string;
  project_id?: string;
  metadata?: MetadataCondition[];
}

const SEARCH_TEXT = ['keyword', 'measurement', 'instrument_name', 'project_id'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A receiver's URL: http or https, at most 2000 characters, and not written to reach an address
 * `addresses` refuses (an address that is not public, or `localhost`; names are checked again at
 * each delivery: receiver-address.ts).
 */
export function checkUrl(
  raw: unknown,
  problems: FieldProblem[],
  addresses: ReceiverAddresses,
): string | undefined {
  let url: URL | undefined;
  try {
    if (typeof raw === 'string' && raw.length <= 2000) url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ field: 'url', message: 'must be an http or https URL of at most 2000 characters' });
    return undefined;
  }
  const refused = addresses.urlRefusal(url);
  if (refused) {
    problems.push({ field: 'url', message: `must reach a public address: ${refused}` });
    return undefined;
  }
  return url.toString();
}

export function checkEventTypes(raw: unknown, problems: FieldProblem[]): string[] | undefined {
  if (raw === undefined || raw === null) return [];
  const known: readonly string[] = EVENT_TYPES;
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string' || !known.includes(t))) {
    problems.push({
      field: 'event_types',
      message: `must be a list of event types: ${EVENT_TYPES.join(', ')}`,
    });
    return undefined;
  }
  return [...new Set(raw as string[])];
}

export function checkDescription(raw: unknown, problems: FieldProblem[]): string | null | undefined {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > 500) {
    problems.push({ field: 'description', message: 'must be a string of at most 500 characters' });
    return undefined;
  }
  return raw;
}

/** Checks a saved dataset search (422 for anything else). */
export function checkSearch(raw: unknown): SavedSearch | null {
  if (raw === undefined || raw === null) return null;
  const problems: FieldProblem[] = [];
  if (!isObject(raw)) {
    problems.push({ field: 'search', message: 'must be an object' });
    assertNoProblems(problems);
    return null;
  }
  const out: SavedSearch = {};
  for (const key of Object.keys(raw)) {
    if (!(SEARCH_TEXT as readonly string[]).includes(key) && key !== 'metadata') {
      problems.push({ field: `search.${key}`, message: 'is not a search field' });
    }
  }
  for (const key of SEARCH_TEXT) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.trim() === '' || v.length > 500) {
      problems.push({ field: `search.${key}`, message: 'must be a non-empty string' });
    } else out[key] = v;
  }
  if (raw.metadata !== undefined && raw.metadata !== null) {
    const ops: readonly string[] = METADATA_OPERATORS;
    if (
      !Array.isArray(raw.metadata) ||
      raw.metadata.some((c) => !isObject(c) || typeof c.path !== 'string' || !ops.includes(String(c.op)))
    ) {
      problems.push({ field: 'search.metadata', message: 'must be a list of {path, op, value} conditions' });
    } else {
      out.metadata = (raw.metadata as Record<string, unknown>[]).map((c) => ({
        path: c.path as string,
        op: c.op as MetadataCondition['op'],
        ...(c.value !== undefined ? { value: c.value } : {}),
      }));
      // the same checks a search makes (paths, values): a bad condition is a 422 now, not at delivery
      metadataCondition('d', out.metadata);
    }
  }
  assertNoProblems(problems);
  return out;
}

/** The dataset filter of a saved search, for one dataset. */
export function searchFilter(search: SavedSearch, datasetId: string): DatasetFilter {
  return {
    uniqueId: datasetId,
    ...(search.keyword ? { keyword: search.keyword } : {}),
    ...(search.measurement ? { measurement: search.measurement } : {}),
    ...(search.instrument_name ? { instrumentName: search.instrument_name } : {}),
    ...(search.project_id ? { projectId: search.project_id } : {}),
    ...(search.metadata?.length ? { metadata: search.metadata } : {}),
  };
}
