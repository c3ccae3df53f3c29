import type { Router } from 'express';
import { recordRoutes } from '../../core/rest/record-routes';
import { parseRecordCreate, parseRecordPatch } from '../owned-record/owned-record.legacy';
import { SAMPLE_TEXT } from './sample.fields';
import { parseSampleFilter, sampleDetail, sampleItems, toLegacySample } from './sample.legacy';

export function sampleRoutes(router: Router): void {
  recordRoutes(router, {
    path: '/samples',
    service: (ctx) => ctx.services.sample,
    parseFilter: parseSampleFilter,
    // read-only fields of a sample that clients echo back from a record they read
    parseCreate: (raw) => parseRecordCreate(SAMPLE_TEXT, raw, { ignore: ['datasets'] }).input,
    parsePatch: (raw) => parseRecordPatch(SAMPLE_TEXT, raw).patch,
    items: (ctx, page, q) => sampleItems(ctx, page.items, q),
    detail: sampleDetail,
    written: (ctx, sample, capabilities) => toLegacySample(ctx, sample, { includeOwner: true, capabilities }),
  });
}
