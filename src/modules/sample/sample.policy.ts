import type { RequestContext } from '../../core/context';
import type { AccessService } from '../permission/access.service';
import { OwnedRecordPolicy, type RecordCapabilities } from '../permission/owned-record.policy';
import type { Sample } from './sample.entity';

export type SampleCapabilities = RecordCapabilities;

/** Who may do what with a sample: the same rules as datasets; `visibleWhere` filters every sample query. */
export class SamplePolicy extends OwnedRecordPolicy<Sample> {
  constructor(access: AccessService) {
    super(access, 'sample', 's');
  }

  capabilities(ctx: RequestContext, sample: Sample): Promise<SampleCapabilities> {
    return this.recordCapabilities(ctx, sample);
  }
}
