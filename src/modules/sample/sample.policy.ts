import type { RequestContext } from '../../core/context';
import type { AccessService } from '../permission/access.service';
import {
  OwnedRecordPolicy,
  type OwnedRecord,
  type RecordCapabilities,
} from '../permission/owned-record.policy';

export type SampleCapabilities = RecordCapabilities;

/** Who may do what with a sample: the same rules as datasets; `visibleWhere` filters every sample query. */
export class SamplePolicy extends OwnedRecordPolicy<OwnedRecord> {
  constructor(access: AccessService) {
    super(access, 'sample', 's');
  }

  capabilities(ctx: RequestContext, sample: OwnedRecord): Promise<SampleCapabilities> {
    return this.recordCapabilities(ctx, sample);
  }
}
