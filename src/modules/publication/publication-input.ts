import { assertNoProblems, type FieldProblem } from '../../core/errors';
import { SPDX_LICENSES } from './spdx-licenses';

/** A creator of a publication: a person or an organisation, as DataCite `creators` carry it. */
export interface Creator {
  name: string;
  /** the ORCID iD, bare (0000-0002-1825-0097), checksum verified */
  orcid: string | null;
  affiliations: Affiliation[];
}

export interface Affiliation {
  name: string;
  /** the ROR id as its URL (https://ror.org/02mhbdp94), format checked */
  rorId: string | null;
}

export interface Funding {
  funderName: string;
  funderIdentifier: string | null;
  awardNumber: string | null;
  awardTitle: string | null;
}

export interface RelatedIdentifier {
  relatedIdentifier: string;
  relatedIdentifierType: RelatedIdentifierType;
  relationType: RelationType;
}

/** What a publication says about itself: frozen when it is published. */
export interface PublicationMetadata {
  title: string;
  description: string;
  creators: Creator[];
  /** an SPDX license id of {@link SPDX_LICENSES} */
  license: string;
  keywords: string[];
  funding: Funding[];
  relatedIdentifiers: RelatedIdentifier[];
  version: string | null;
}

/** The metadata as a client sends it (unchecked: any shape may arrive). */
export type PublicationInput = Partial<Record<keyof PublicationMetadata, unknown>> & {
  /** the embargo date (a draft's only; docs/publications.md, "Embargo"): undefined keeps it */
  embargoUntil?: unknown;
};

/** DataCite `relatedIdentifierType` values: those of the DataCite Metadata Schema 4.7 the records are checked against. */
export const RELATED_IDENTIFIER_TYPES = [
  'ARK',
  'arXiv',
  'bibcode',
  'CSTR',
  'DOI',
  'EAN13',
  'EISSN',
  'Handle',
  'IGSN',
  'ISBN',
  'ISSN',
  'ISTC',
  'LISSN',
  'LSID',
  'PMID',
  'PURL',
  'RAiD',
  'RRID',
  'SWHID',
  'UPC',
  'URL',
  'URN',
  'w3id',
] as const;
export type RelatedIdentifierType = (typeof RELATED_IDENTIFIER_TYPES)[number];

/** DataCite `relationType` values: those of the DataCite Metadata Schema 4.7 the records are checked against. */
export const RELATION_TYPES = [
  'IsCitedBy',
  'Cites',
  'IsSupplementTo',
  'IsSupplementedBy',
  'IsContinuedBy',
  'Continues',
  'IsDescribedBy',
  'Describes',
  'HasMetadata',
  'IsMetadataFor',
  'HasVersion',
  'IsVersionOf',
  'IsNewVersionOf',
  'IsPreviousVersionOf',
  'IsPartOf',
  'HasPart',
  'IsPublishedIn',
  'IsReferencedBy',
  'References',
  'IsDocumentedBy',
  'Documents',
  'IsCompiledBy',
  'Compiles',
  'IsVariantFormOf',
  'IsOriginalFormOf',
  'IsIdenticalTo',
  'IsReviewedBy',
  'Reviews',
  'IsDerivedFrom',
  'IsSourceOf',
  'IsRequiredBy',
  'Requires',
  'IsObsoletedBy',
  'Obsoletes',
  'IsCollectedBy',
  'Collects',
  'HasTranslation',
  'IsTranslationOf',
  'Other',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** The limits on what a caller sends (docs/publications.md). */
export const PUBLICATION_LIMITS = {
  title: 500,
  descriptionMin: 50,
  descriptionMax: 5000,
  creators: 100,
  name: 300,
  affiliations: 20,
  keywords: 50,
  keyword: 100,
  funding: 50,
  relatedIdentifiers: 100,
  identifier: 500,
  version: 50,
  withdrawalReason: 1000,
  datasets: 1000,
} as const;

const ORCID = /^(?:https?:\/\/orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[0-9X])$/;
// a ROR id: 0, six characters of Crockford base32 (no i, l, o, u), two checksum digits
const ROR = /^(?:https?:\/\/ror\.org\/)?(0[0-9a-hjkmnp-tv-z]{6}\d{2})$/;

/** ISO 7064 MOD 11-2, the ORCID iD check character. */
export function orcidChecksumOk(orcid: string): boolean {
  const digits = orcid.replace(/-/g, '');
  let total = 0;
  for (const ch of digits.slice(0, 15)) total = (total + Number(ch)) * 2;
  const result = (12 - (total % 11)) % 11;
  return digits[15] === (result === 10 ? 'X' : String(result));
}

/** The bare ORCID iD of `value` (bare or as its https://orcid.org/ URL), or null when invalid. */
export function parseOrcid(value: string): string | null {
  const m = ORCID.exec(value.trim());
  return m && orcidChecksumOk(m[1]) ? m[1] : null;
}

/** The ROR id of `value` as its URL, or null when it does not have a ROR id's form. */
export function parseRor(value: string): string | null {
  const m = ROR.exec(value.trim());
  return m ? `https://ror.org/${m[1]}` : null;
}

type Problems = FieldProblem[];

function text(
  raw: unknown,
  field: string,
  problems: Problems,
  opts: { min?: number; max: number; optional?: boolean },
): string | null {
  if ((raw === undefined || raw === null || raw === '') && opts.optional) return null;
  if (typeof raw !== 'string') {
    problems.push({ field, message: 'must be a string' });
    return null;
  }
  const value = raw.trim();
  const min = opts.min ?? 1;
  if (value.length < min || value.length > opts.max) {
    problems.push({
      field,
      message: min === 1 ? `must be 1 to ${opts.max} characters` : `must be ${min} to ${opts.max} characters`,
    });
    return null;
  }
  return value;
}

function list(raw: unknown, field: string, max: number, problems: Problems): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push({ field, message: 'must be a list' });
    return [];
  }
  if (raw.length > max) {
    problems.push({ field, message: `at most ${max} items` });
    return [];
  }
  return raw;
}

function object(raw: unknown, field: string, problems: Problems): Record<string, unknown> | null {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>;
  problems.push({ field, message: 'must be an object' });
  return null;
}

function unknownKeys(o: Record<string, unknown>, known: string[], field: string, problems: Problems): void {
  for (const key of Object.keys(o)) {
    if (!known.includes(key)) problems.push({ field: `${field}.${key}`, message: 'is not a known field' });
  }
}

function creator(raw: unknown, field: string, problems: Problems): Creator | null {
  const o = object(raw, field, problems);
  if (!o) return null;
  unknownKeys(o, ['name', 'orcid', 'affiliations'], field, problems);
  const name = text(o.name, `${field}.name`, problems, { max: PUBLICATION_LIMITS.name });
  let orcid: string | null = null;
  if (o.orcid !== undefined && o.orcid !== null && o.orcid !== '') {
    orcid = typeof o.orcid === 'string' ? parseOrcid(o.orcid) : null;
    if (!orcid)
      problems.push({
        field: `${field}.orcid`,
        message: 'must be an ORCID iD (0000-0002-1825-0097) whose check digit is right',
      });
  }
  const affiliations: Affiliation[] = [];
  list(o.affiliations, `${field}.affiliations`, PUBLICATION_LIMITS.affiliations, problems).forEach((a, i) => {
    const f = `${field}.affiliations[${i}]`;
    const ao = object(a, f, problems);
    if (!ao) return;
    unknownKeys(ao, ['name', 'ror_id', 'rorId'], f, problems);
    const affName = text(ao.name, `${f}.name`, problems, { max: PUBLICATION_LIMITS.name });
    const rawRor = ao.ror_id ?? ao.rorId;
    let rorId: string | null = null;
    if (rawRor !== undefined && rawRor !== null && rawRor !== '') {
      rorId = typeof rawRor === 'string' ? parseRor(rawRor) : null;
      if (!rorId)
        problems.push({ field: `${f}.ror_id`, message: 'must be a ROR id (https://ror.org/02mhbdp94)' });
    }
    if (affName) affiliations.push({ name: affName, rorId });
  });
  return name ? { name, orcid, affiliations } : null;
}

function funding(raw: unknown, field: string, problems: Problems): Funding | null {
  const o = object(raw, field, problems);
  if (!o) return null;
  const keys = ['funder_name', 'funder_identifier', 'award_number', 'award_title'];
  unknownKeys(o, [...keys, 'funderName', 'funderIdentifier', 'awardNumber', 'awardTitle'], field, problems);
  const pick = (snake: string, camel: string) => o[snake] ?? o[camel];
  const max = PUBLICATION_LIMITS.identifier;
  const funderName = text(pick('funder_name', 'funderName'), `${field}.funder_name`, problems, { max });
  const funderIdentifier = text(
    pick('funder_identifier', 'funderIdentifier'),
    `${field}.funder_identifier`,
    problems,
    {
      max,
      optional: true,
    },
  );
  const awardNumber = text(pick('award_number', 'awardNumber'), `${field}.award_number`, problems, {
    max,
    optional: true,
  });
  const awardTitle = text(pick('award_title', 'awardTitle'), `${field}.award_title`, problems, {
    max,
    optional: true,
  });
  return funderName ? { funderName, funderIdentifier, awardNumber, awardTitle } : null;
}

function related(raw: unknown, field: string, problems: Problems): RelatedIdentifier | null {
  const o = object(raw, field, problems);
  if (!o) return null;
  unknownKeys(
    o,
    [
      'related_identifier',
      'related_identifier_type',
      'relation_type',
      'relatedIdentifier',
      'relatedIdentifierType',
      'relationType',
    ],
    field,
    problems,
  );
  const id = text(o.related_identifier ?? o.relatedIdentifier, `${field}.related_identifier`, problems, {
    max: PUBLICATION_LIMITS.identifier,
  });
  const type = o.related_identifier_type ?? o.relatedIdentifierType;
  const relation = o.relation_type ?? o.relationType;
  const typeOk = (RELATED_IDENTIFIER_TYPES as readonly unknown[]).includes(type);
  const relationOk = (RELATION_TYPES as readonly unknown[]).includes(relation);
  if (!typeOk)
    problems.push({
      field: `${field}.related_identifier_type`,
      message: `must be one of ${RELATED_IDENTIFIER_TYPES.join(', ')}`,
    });
  if (!relationOk)
    problems.push({
      field: `${field}.relation_type`,
      message: `must be one of ${RELATION_TYPES.join(', ')}`,
    });
  // new-version links are the service's own: set by publishing a new version
  if (relation === 'IsNewVersionOf' || relation === 'IsPreviousVersionOf')
    problems.push({
      field: `${field}.relation_type`,
      message: 'version links are made by publishing a new version, not sent',
    });
  return id && typeOk && relationOk
    ? {
        relatedIdentifier: id,
        relatedIdentifierType: type as RelatedIdentifierType,
        relationType: relation as RelationType,
      }
    : null;
}

/**
 * Checks a publication's metadata: `base` is the draft's current metadata (for a change: what
 * `input` leaves out is kept), none for a new draft (then title, description, creators and
 * license are required). 422 naming every field at fault, or the complete metadata.
 */
export function checkMetadata(input: PublicationInput, base?: PublicationMetadata): PublicationMetadata {
  const problems: Problems = [];
  const given = (key: keyof PublicationMetadata) => input[key] !== undefined;
  const out: Partial<PublicationMetadata> = { ...base };
  if (given('title') || !base)
    out.title = text(input.title, 'title', problems, { max: PUBLICATION_LIMITS.title }) ?? '';
  if (given('description') || !base)
    out.description =
      text(input.description, 'description', problems, {
        min: PUBLICATION_LIMITS.descriptionMin,
        max: PUBLICATION_LIMITS.descriptionMax,
      }) ?? '';
  if (given('creators') || !base) {
    const raw = list(input.creators, 'creators', PUBLICATION_LIMITS.creators, problems);
    if (!raw.length && !problems.some((p) => p.field === 'creators'))
      problems.push({ field: 'creators', message: 'at least one creator' });
    out.creators = raw.map((c, i) => creator(c, `creators[${i}]`, problems)).filter((c) => c !== null);
  }
  if (given('license') || !base) {
    const license = text(input.license, 'license', problems, { max: 100 });
    if (license && !Object.hasOwn(SPDX_LICENSES, license))
      problems.push({ field: 'license', message: 'must be an SPDX license id (CC-BY-4.0, CC0-1.0, MIT …)' });
    out.license = license ?? '';
  }
  if (given('keywords') || !base) {
    const raw = list(input.keywords, 'keywords', PUBLICATION_LIMITS.keywords, problems);
    const keywords = raw.map((k, i) =>
      text(k, `keywords[${i}]`, problems, { max: PUBLICATION_LIMITS.keyword }),
    );
    out.keywords = [...new Set(keywords.filter((k) => k !== null))];
  }
  if (given('funding') || !base)
    out.funding = list(input.funding, 'funding', PUBLICATION_LIMITS.funding, problems)
      .map((f, i) => funding(f, `funding[${i}]`, problems))
      .filter((f) => f !== null);
  if (given('relatedIdentifiers') || !base)
    out.relatedIdentifiers = list(
      input.relatedIdentifiers,
      'related_identifiers',
      PUBLICATION_LIMITS.relatedIdentifiers,
      problems,
    )
      .map((r, i) => related(r, `related_identifiers[${i}]`, problems))
      .filter((r) => r !== null);
  if (given('version') || !base)
    out.version = text(input.version, 'version', problems, {
      max: PUBLICATION_LIMITS.version,
      optional: true,
    });
  assertNoProblems(problems);
  return out as PublicationMetadata;
}

/** Checks a withdrawal reason: 422 unless 1 to 1,000 characters. */
export function checkReason(raw: unknown): string {
  const problems: Problems = [];
  const reason = text(raw, 'reason', problems, { max: PUBLICATION_LIMITS.withdrawalReason });
  assertNoProblems(problems);
  return reason ?? '';
}
