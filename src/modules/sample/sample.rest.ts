import { recordRoutes } from '../../core/rest/record-routes';
import type { Route } from '../../core/rest/route';
import {
  detailOptions,
  itemOptions,
  recordCreateBody,
  recordCreateInput,
  recordPatchBody,
  recordPatchInput,
} from '../owned-record/owned-record.legacy';
import { INCLUDE_QUERY } from '../../core/rest/include';
import { SAMPLE_TEXT } from './sample.fields';
import {
  parseSampleFilter,
  SAMPLE,
  SAMPLE_QUERY,
  legacyInclude,
  sampleDetail,
  sampleItems,
  sampleListJson,
  sampleWritten,
} from './sample.legacy';
import { QBool } from '../../core/rest/schema';

export const sampleRoutes: Route[] = recordRoutes({
  path: '/samples',
  noun: 'sample',
  tag: 'samples',
  record: SAMPLE,
  listQuery: SAMPLE_QUERY,
  detailQuery: { ...INCLUDE_QUERY, include_datasets: QBool('add the deprecated `datasets` list', true) },
  // read-only fields of a sample that clients echo back from a record they read
  createBody: recordCreateBody(SAMPLE_TEXT, { ignore: ['datasets'], title: 'SampleCreate' }),
  patchBody: recordPatchBody(SAMPLE_TEXT, { title: 'SamplePatch' }),
  service: (ctx) => ctx.services.sample,
  parseFilter: parseSampleFilter,
  parseCreate: (body) => recordCreateInput(SAMPLE_TEXT, body),
  parsePatch: (body) => recordPatchInput(SAMPLE_TEXT, body),
  include: {
    list: (q) => legacyInclude(itemOptions(q)),
    detail: (q) => legacyInclude(detailOptions(q)),
    written: legacyInclude({ includeOwner: true }),
  },
  items: sampleItems,
  listJson: sampleListJson,
  detail: sampleDetail,
  written: sampleWritten,
});
