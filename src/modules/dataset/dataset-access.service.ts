import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import type { DatasetService } from './dataset.service';
import type { UserService } from '../user/user.service';
import type { DatasetAccessReport } from '../user/user.policy';

/**
 * What a user may access, for platform administrators (`/users/{id}/datasets`): the datasets
 * they may read, and whether they may read and write one dataset. Each answer is that user's
 * own visibility and permission (`ctx.as(user)`), never a second copy of the rules.
 */
export class UserAccessService {
  constructor(private readonly deps: { users: UserService; datasets: DatasetService }) {}

  /** The ids of every dataset the user with this ORCID or MFID may read. */
  async readableDatasets(ctx: RequestContext, userId: string): Promise<string[]> {
    this.deps.users.policy.assertMayInspectAccess(ctx);
    const user = await this.deps.users.require(ctx.em, userId);
    return this.deps.datasets.readableIds(ctx.as(user));
  }

  /**
   * Whether the user (ORCID, MFID, username or email) may read and write a dataset, and their
   * level on it (404 when the user or the dataset does not exist).
   */
  async datasetAccess(
    ctx: RequestContext,
    userId: string,
    datasetId: string,
  ): Promise<DatasetAccessReport & { userId: string; datasetId: string }> {
    this.deps.users.policy.assertMayInspectAccess(ctx);
    // the 3.2 client names the user as given (`check_dataset_access('alice', …)`)
    const user = await this.deps.users.resolve(ctx.em, userId);
    if (!user) throw notFound('User', userId);
    const ds = await this.deps.datasets.get(ctx, datasetId);
    const permission = await this.deps.datasets.policy.permission(ctx.as(user), ds);
    return {
      ...this.deps.users.policy.datasetAccess(user, permission),
      userId: user.uniqueId,
      datasetId: ds.uniqueId,
    };
  }
}
