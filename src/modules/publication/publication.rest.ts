import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, Enum, NullableString, OFFSET_PAGE, offsetPage, Type } from '../../core/rest/schema';
import { PUBLICATION_STATES, type Publication } from './publication.entity';
import type { PublicationInput } from './publication-input';
import type { RequestContext } from '../../core/context';
import { REGISTRATION_STATES, registrationState } from './datacite-registration';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, negotiated } from './citation-export';

const tag = 'publications';
const id = { id: 'the publication MFID' };

const metadataFields = {
  title: Type.Optional(Checked('the title (at most 500 characters)', { type: 'string' })),
  description: Type.Optional(Checked('the description (50 to 5,000 characters)', { type: 'string' })),
  creators: Type.Optional(
    Checked('1 to 100 creators: {name, orcid?, affiliations?: [{name, ror_id?}]}', { type: 'array' }),
  ),
  license: Type.Optional(Checked('an SPDX license id (CC-BY-4.0, CC0-1.0, MIT …)', { type: 'string' })),
  keywords: Type.Optional(Checked('at most 50 keywords', { type: 'array' })),
  funding: Type.Optional(
    Checked('at most 50: {funder_name, funder_identifier?, award_number?, award_title?}', { type: 'array' }),
  ),
  related_identifiers: Type.Optional(
    Checked('at most 100: {related_identifier, related_identifier_type, relation_type} (DataCite values)', {
      type: 'array',
    }),
  ),
  version: Type.Optional(Checked('the version (at most 50 characters)', { type: ['string', 'null'] })),
  embargo_until: Type.Optional(
    Checked(
      'the embargo: until this moment (ISO 8601 date-time with offset, or a date) the files stay closed to readers without a role on the datasets; null for none (docs/publications.md, "Embargo")',
      { type: ['string', 'null'] },
    ),
  ),
};

const CREATE_BODY = Type.Object(
  {
    dataset_ids: Checked('the datasets: 1 to 1,000 MFIDs of datasets you may manage', { type: 'array' }),
    ...metadataFields,
  },
  { additionalProperties: false, title: 'PublicationInput' },
);

const UPDATE_BODY = Type.Object(
  {
    dataset_ids: Type.Optional(Checked('a new dataset list (datasets you may manage)', { type: 'array' })),
    ...metadataFields,
  },
  { additionalProperties: false, title: 'PublicationChange' },
);

const AFFILIATION = Type.Object({ name: Type.String(), ror_id: NullableString() });
const MANIFEST_FILE = Type.Object({
  file_id: Type.String(),
  name: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String(),
});

const PUBLICATION = Type.Object(
  {
    id: Type.String({ description: 'the publication MFID' }),
    state: Enum(PUBLICATION_STATES),
    creator_id: Type.String({ description: 'the user who created the draft' }),
    title: Type.String(),
    description: Type.String(),
    creators: Type.Array(
      Type.Object({ name: Type.String(), orcid: NullableString(), affiliations: Type.Array(AFFILIATION) }),
    ),
    license: Type.String({ description: 'the SPDX license id' }),
    keywords: Type.Array(Type.String()),
    funding: Type.Array(
      Type.Object({
        funder_name: Type.String(),
        funder_identifier: NullableString(),
        award_number: NullableString(),
        award_title: NullableString(),
      }),
    ),
    related_identifiers: Type.Array(
      Type.Object({
        related_identifier: Type.String(),
        related_identifier_type: Type.String(),
        relation_type: Type.String(),
      }),
    ),
    version: NullableString(),
    dataset_ids: Type.Array(Type.String()),
    manifest: Type.Union(
      [
        Type.Array(
          Type.Object({
            dataset_id: Type.String(),
            name: NullableString(),
            files: Type.Array(MANIFEST_FILE),
          }),
        ),
        Type.Null(),
      ],
      { description: 'the frozen manifest: set once published, null for drafts and withdrawn ones' },
    ),
    doi: NullableString({
      description: 'the DOI (chosen at creation when DataCite is configured; it never changes), else null',
    }),
    registration_state: Enum(REGISTRATION_STATES, {
      description:
        "the DOI's registration at DataCite: none (no DataCite), pending (not yet where it should be), draft, registered, findable (as DataCite confirmed), failed (refused: see registration_error)",
    }),
    registration_error: NullableString({
      description:
        'why DataCite (or the DataCite Metadata Schema 4.7 check) refused it; shown only to those who may change it',
    }),
    previous_version_id: NullableString(),
    published_at: NullableString({ format: 'date-time' }),
    embargo_until: NullableString({
      format: 'date-time',
      description: 'until when the files of its datasets stay closed (null: no embargo)',
    }),
    withdrawn_at: NullableString({ format: 'date-time' }),
    withdrawal_reason: NullableString(),
    creation_time: Type.String({ format: 'date-time' }),
  },
  { title: 'Publication' },
);

function input(body: unknown): PublicationInput {
  const b = body as Record<string, unknown>;
  return {
    title: b.title,
    description: b.description,
    creators: b.creators,
    license: b.license,
    keywords: b.keywords,
    funding: b.funding,
    relatedIdentifiers: b.related_identifiers,
    version: b.version,
    embargoUntil: b.embargo_until,
  };
}

/** The wire form of a publication for this caller (only its managers see a registration error). */
async function wire(ctx: RequestContext, pub: Publication) {
  return toWire(pub, await ctx.services.publication.registrationError(ctx, pub));
}

function toWire(pub: Publication, registrationError: string | null) {
  const m = pub.metadata;
  return {
    id: pub.uniqueId,
    state: pub.state,
    creator_id: pub.creatorId,
    title: m.title,
    description: m.description,
    creators: m.creators.map((c) => ({
      name: c.name,
      orcid: c.orcid,
      affiliations: c.affiliations.map((a) => ({ name: a.name, ror_id: a.rorId })),
    })),
    license: m.license,
    keywords: m.keywords,
    funding: m.funding.map((f) => ({
      funder_name: f.funderName,
      funder_identifier: f.funderIdentifier,
      award_number: f.awardNumber,
      award_title: f.awardTitle,
    })),
    related_identifiers: m.relatedIdentifiers.map((r) => ({
      related_identifier: r.relatedIdentifier,
      related_identifier_type: r.relatedIdentifierType,
      relation_type: r.relationType,
    })),
    version: m.version,
    dataset_ids: pub.datasetIds,
    manifest:
      pub.state === 'published' && pub.manifest
        ? pub.manifest.map((d) => ({
            dataset_id: d.datasetId,
            name: d.name,
            files: d.files.map((f) => ({ file_id: f.fileId, name: f.name, size: f.size, sha256: f.sha256 })),
          }))
        : null,
    doi: pub.doi ?? null,
    registration_state: registrationState(pub),
    registration_error: registrationError,
    previous_version_id: pub.previousVersionId ?? null,
    published_at: pub.publishedAt?.toISOString() ?? null,
    embargo_until: pub.embargoUntil?.toISOString() ?? null,
    withdrawn_at: pub.withdrawnAt?.toISOString() ?? null,
    withdrawal_reason: pub.withdrawalReason ?? null,
    creation_time: pub.creationTime.toISOString(),
  };
}

/** Publications: drafts, publishing, versions and withdrawal (docs/publications.md). */
export const publicationRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/publications',
      tag,
      summary: 'Create a draft publication of datasets you may manage',
      body: CREATE_BODY,
      status: 201,
      response: PUBLICATION,
    },
    async (ctx, { body }) =>
      wire(
        ctx,
        await ctx.services.publication.create(
          ctx,
          (body as Record<string, unknown>).dataset_ids,
          input(body),
        ),
      ),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/publications',
      tag,
      summary:
        'Published and withdrawn publications, and your own drafts, newest first (no key needed: anonymous callers get the published and withdrawn ones)',
      auth: 'optional',
      query: {
        ...OFFSET_PAGE,
        state: Type.Optional(Enum(PUBLICATION_STATES, { description: 'only publications in this state' })),
      },
      response: offsetPage(PUBLICATION),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.publication.list(
        ctx,
        { state: query.state },
        { limit: Math.min(query.limit ?? 50, 1000), offset: query.offset ?? 0 },
      );
      return { items: await Promise.all(page.items.map((p) => wire(ctx, p))), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/publications/:id',
      tag,
      summary:
        'A publication (a draft only for those who may change it; no key needed for a published or withdrawn one)',
      auth: 'optional',
      params: id,
      response: PUBLICATION,
    },
    async (ctx, { params }, req, res) => {
      const format = negotiated(req.headers.accept);
      if (!format) return wire(ctx, await ctx.services.publication.get(ctx, params.id));
      const out = await ctx.services.publication.exportAs(ctx, params.id, format);
      res.status(200).type(out.mediaType).send(out.body);
      return undefined;
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/publications/:id/export/:format',
      tag,
      summary:
        'A publication in a citation or metadata format (also by content negotiation on /publications/{id})',
      auth: 'optional',
      description: `Formats and media types: ${EXPORT_FORMAT_NAMES.map((f) => `${f} (${EXPORT_FORMATS[f].mediaType})`).join(', ')}. All are made from one citation record (docs/publications.md).`,
      params: { ...id, format: `one of ${EXPORT_FORMAT_NAMES.join(', ')}` },
      responseType: 'text/plain',
    },
    async (ctx, { params }, _req, res) => {
      const out = await ctx.services.publication.exportAs(ctx, params.id, params.format);
      res.status(200).type(out.mediaType).send(out.body);
      return undefined;
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/publications/:id',
      tag,
      summary: 'Change a draft publication (409 once published)',
      params: id,
      body: UPDATE_BODY,
      response: PUBLICATION,
    },
    async (ctx, { params, body }) =>
      wire(
        ctx,
        await ctx.services.publication.update(
          ctx,
          params.id,
          input(body),
          (body as Record<string, unknown>).dataset_ids,
        ),
      ),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/publications/:id/publish',
      tag,
      summary: 'Publish a draft: its metadata and file manifest (names, sizes, SHA-256) are frozen',
      params: id,
      response: PUBLICATION,
    },
    async (ctx, { params }) => wire(ctx, await ctx.services.publication.publish(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/publications/:id/versions',
      tag,
      summary: 'A new draft version of a published publication (linked both ways once published)',
      params: id,
      status: 201,
      response: PUBLICATION,
    },
    async (ctx, { params }) => wire(ctx, await ctx.services.publication.newVersion(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/publications/:id/withdraw',
      tag,
      summary: 'Withdraw a published publication: a tombstone with the reason stays',
      params: id,
      body: Type.Object(
        { reason: Checked('why (1 to 1,000 characters), shown on the tombstone', { type: 'string' }) },
        { additionalProperties: false, title: 'PublicationWithdrawal' },
      ),
      response: PUBLICATION,
    },
    async (ctx, { params, body }) =>
      wire(
        ctx,
        await ctx.services.publication.withdraw(ctx, params.id, (body as { reason?: unknown }).reason),
      ),
  ),
];
