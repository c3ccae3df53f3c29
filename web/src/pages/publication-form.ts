import { AppError } from '../../../src/core/errors';
import {
  checkMetadata,
  checkReason,
  parseOrcid,
  parseRor,
  PUBLICATION_LIMITS,
  RELATED_IDENTIFIER_TYPES,
  RELATION_TYPES,
} from '../../../src/modules/publication/publication-input';
import { parseEmbargoDate } from '../../../src/modules/access/embargo-date';
import { SPDX_LICENSES } from '../../../src/modules/publication/spdx-licenses';
import type { PublicationMetadataInput } from '../gql/graphql';

/**
 * The publish form's state and its checks. The rules are the service's own
 * (src/modules/publication/publication-input.ts, bundled into the page as it is): the form shows
 * what the service would refuse, by the same field names, before anything is sent
 * (docs/publications.md, "The publish form").
 */
export { parseOrcid, parseRor, PUBLICATION_LIMITS, RELATED_IDENTIFIER_TYPES, RELATION_TYPES, SPDX_LICENSES };

export interface AffiliationRow {
  name: string;
  ror: string;
}
export interface CreatorRow {
  name: string;
  orcid: string;
  affiliations: AffiliationRow[];
}
export interface FundingRow {
  funderName: string;
  funderIdentifier: string;
  awardNumber: string;
  awardTitle: string;
}
export interface RelatedRow {
  identifier: string;
  type: string;
  relation: string;
}
export interface PublishForm {
  title: string;
  description: string;
  creators: CreatorRow[];
  license: string;
  /** comma-separated */
  keywords: string;
  funding: FundingRow[];
  related: RelatedRow[];
  version: string;
  /** a date or a date-time with its offset; empty: none */
  embargo: string;
}

/** The licenses offered first (the rest of the SPDX list follows). */
export const COMMON_LICENSES = [
  'CC-BY-4.0',
  'CC0-1.0',
  'CC-BY-SA-4.0',
  'CC-BY-NC-4.0',
  'ODbL-1.0',
  'MIT',
  'Apache-2.0',
];

export const emptyForm = (creator: string): PublishForm => ({
  title: '',
  description: '',
  creators: [{ name: creator, orcid: '', affiliations: [] }],
  license: 'CC-BY-4.0',
  keywords: '',
  funding: [],
  related: [],
  version: '',
  embargo: '',
});

const orNull = (s: string): string | null => (s.trim() === '' ? null : s);

/** What the form sends: the GraphQL input, every row as it is (an empty row is the user's to fill or remove). */
export function toInput(f: PublishForm): PublicationMetadataInput {
  return {
    title: f.title,
    description: f.description,
    creators: f.creators.map((c) => ({
      name: c.name,
      orcid: orNull(c.orcid),
      affiliations: c.affiliations.map((a) => ({ name: a.name, rorId: orNull(a.ror) })),
    })),
    license: f.license,
    keywords: f.keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    funding: f.funding.map((x) => ({
      funderName: x.funderName,
      funderIdentifier: orNull(x.funderIdentifier),
      awardNumber: orNull(x.awardNumber),
      awardTitle: orNull(x.awardTitle),
    })),
    relatedIdentifiers: f.related.map((r) => ({
      relatedIdentifier: r.identifier,
      relatedIdentifierType: r.type,
      relationType: r.relation,
    })),
    version: orNull(f.version),
    embargoUntil: orNull(f.embargo.trim()),
  };
}

/** A publication as the API reads it, back into the form (editing a draft). */
export function fromPublication(p: {
  title: string;
  description: string;
  creators: {
    name: string;
    orcid?: string | null;
    affiliations: { name: string; rorId?: string | null }[];
  }[];
  license: string;
  keywords: string[];
  funding: {
    funderName: string;
    funderIdentifier?: string | null;
    awardNumber?: string | null;
    awardTitle?: string | null;
  }[];
  relatedIdentifiers: { relatedIdentifier: string; relatedIdentifierType: string; relationType: string }[];
  version?: string | null;
  embargoUntil?: string | null;
}): PublishForm {
  return {
    title: p.title,
    description: p.description,
    creators: p.creators.map((c) => ({
      name: c.name,
      orcid: c.orcid ?? '',
      affiliations: c.affiliations.map((a) => ({ name: a.name, ror: a.rorId ?? '' })),
    })),
    license: p.license,
    keywords: p.keywords.join(', '),
    funding: p.funding.map((x) => ({
      funderName: x.funderName,
      funderIdentifier: x.funderIdentifier ?? '',
      awardNumber: x.awardNumber ?? '',
      awardTitle: x.awardTitle ?? '',
    })),
    related: p.relatedIdentifiers.map((r) => ({
      identifier: r.relatedIdentifier,
      type: r.relatedIdentifierType,
      relation: r.relationType,
    })),
    version: p.version ?? '',
    embargo: embargoText(p.embargoUntil),
  };
}

/** An embargo date as the form shows it: the date alone when it is midnight UTC (as a date is read). */
function embargoText(iso: string | null | undefined): string {
  if (!iso) return '';
  const m = /^(\d{4}-\d{2}-\d{2})T00:00:00(\.000)?Z$/.exec(iso);
  return m ? m[1] : iso;
}

/** Problems by field name (the service's names: `creators[0].orcid`, `related_identifiers[1].relation_type`). */
export type Problems = Record<string, string>;

function collect(fields: readonly { field: string; message: string }[]): Problems {
  const out: Problems = {};
  for (const p of fields) out[p.field] = out[p.field] ? `${out[p.field]}; ${p.message}` : p.message;
  return out;
}

/** What the service would refuse in this form, by field: its own checks, run in the page. */
export function problemsOf(f: PublishForm): Problems {
  const out: Problems = {};
  for (const check of [
    () => checkMetadata(toInput(f)),
    () => (f.embargo.trim() === '' ? null : parseEmbargoDate(f.embargo, 'embargo_until')),
  ]) {
    try {
      check();
    } catch (e) {
      if (e instanceof AppError) Object.assign(out, collect(e.fields));
      else out.form = e instanceof Error ? e.message : String(e);
    }
  }
  return out;
}

/** The withdrawal reason's problem (the service's check), or null. */
export function reasonProblem(reason: string): string | null {
  try {
    checkReason(reason);
    return null;
  } catch (e) {
    return e instanceof AppError ? (e.fields[0]?.message ?? e.message) : String(e);
  }
}

/** Problems the service answered (a 4xx's `extensions.fields`), by field. */
export const serverProblems = collect;
