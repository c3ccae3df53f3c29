import type { RequestContext } from '../../core/context';
import type { AccessService } from '../permission/access.service';
import {
  OwnedRecordPolicy,
  type OwnedRecord,
  type RecordCapabilities,
} from '../permission/owned-record.policy';

export interface DatasetCapabilities extends RecordCapabilities {
  canAddFiles: boolean;
  /** datasets have no lifecycle status: always false (spec 2.1 rule 7) */
  canChangeStatus: boolean;
}

/** Who may do what with a dataset (DESIGN §5); `visibleWhere` filters every dataset query. */
export class DatasetPolicy extends OwnedRecordPolicy<OwnedRecord> {
  constructor(access: AccessService) {
    super(access, 'dataset', 'd');
  }

  async capabilities(ctx: RequestContext, ds: OwnedRecord): Promise<DatasetCapabilities> {
    const common = await this.recordCapabilities(ctx, ds);
    // adding files needs contributor, as editing metadata does
    return { ...common, canAddFiles: common.canEditMetadata, canChangeStatus: false };
  }
}
