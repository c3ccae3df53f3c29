import type { Response } from 'express';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { negotiated } from './citation-export';
import {
  DATASET_EXPORT_FORMATS,
  datasetCitation,
  renderDataset,
  type DatasetExportFormat,
} from './dataset-citation';

const tag = 'datasets';

async function send(
  ctx: RequestContext,
  id: string,
  format: DatasetExportFormat,
  res: Response,
): Promise<void> {
  const { publication, dataset, file } = ctx.services;
  const record = await datasetCitation(
    ctx,
    { datasets: dataset, files: file, ...publication.citationSettings },
    id,
  );
  const out = renderDataset(record, format);
  res.status(200).type(out.mediaType).send(out.body);
}

/**
 * A dataset as schema.org `Dataset` JSON-LD and as an RO-Crate 1.2 metadata document, from the
 * mapping publications are exported with (docs/publications.md). No key needed for a public
 * dataset; a private one is read by whoever may read it, and is a 404 for the others.
 */
export const datasetExportRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/export',
      tag,
      summary:
        'A dataset as schema.org JSON-LD, or as RO-Crate metadata when Accept asks for the RO-Crate profile (no key needed for a public dataset)',
      description:
        'Content negotiation: `application/ld+json; profile="https://w3id.org/ro/crate"` answers the RO-Crate 1.2 metadata document, anything else schema.org `Dataset` JSON-LD (`Vary: Accept`).',
      params: { id: 'the dataset MFID' },
      responseType: 'application/ld+json',
      auth: 'optional',
    },
    async (ctx, { params }, req, res) => {
      res.vary('Accept');
      await send(
        ctx,
        params.id,
        negotiated(req.headers.accept) === 'ro-crate' ? 'ro-crate' : 'schema-org',
        res,
      );
      return undefined;
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/export/:format',
      tag,
      summary: 'A dataset as schema.org JSON-LD or RO-Crate metadata (no key needed for a public dataset)',
      params: { id: 'the dataset MFID', format: `one of ${DATASET_EXPORT_FORMATS.join(', ')}` },
      responseType: 'application/ld+json',
      auth: 'optional',
    },
    async (ctx, { params }, _req, res) => {
      if (!(DATASET_EXPORT_FORMATS as readonly string[]).includes(params.format))
        throw validationError('format', `must be one of ${DATASET_EXPORT_FORMATS.join(', ')}`);
      await send(ctx, params.id, params.format as DatasetExportFormat, res);
      return undefined;
    },
  ),
];
