import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { rank, type GrantablePermission } from '../permission/permission';
import type { Instrument } from '../instrument/instrument.entity';
import type { InstrumentService } from '../instrument/instrument.service';
import type { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { GrantService } from './grant.service';

/** The role a bound service account holds on its instrument (the 3.2 client's operator role). */
export const OPERATOR_ROLE: GrantablePermission = 'editor';

/** A service account acting for an instrument, with the permission it holds there. */
export interface InstrumentOperator {
  user: User;
  role: GrantablePermission;
}

/**
 * The service accounts that act for an instrument (the 3.2 client's `bind_service_account`,
 * `unbind_service_account`, `list_service_accounts`). A binding is a user grant on the
 * instrument to the service account, at `editor` (the operator role): the account may then
 * change the instrument's fields and status and add its metadata, as an editor maintainer may.
 * It is written and removed through the grant rules, so it needs `manage` on the instrument (its
 * owner, an admin maintainer, a platform administrator), shows in the instrument's access list
 * and its events are `access.granted` / `access.revoked`. Listing needs `manage` too: the full
 * grant list of an instrument is for those who may manage it.
 */
export class InstrumentOperatorService {
  constructor(
    private readonly deps: { grants: GrantService; users: UserService; instruments: InstrumentService },
  ) {}

  /** The service accounts holding a grant on the instrument, with their role. */
  async list(ctx: RequestContext, instrumentId: string): Promise<InstrumentOperator[]> {
    const instrument = await this.managed(ctx, instrumentId);
    return this.operators(ctx, instrument);
  }

  /**
   * Binds a service account (by MFID, username or email): it gets the operator role, unless it
   * already holds as much or more. 404 when no user matches, 422 when it is a person.
   */
  async bind(ctx: RequestContext, instrumentId: string, account: string): Promise<InstrumentOperator[]> {
    const instrument = await this.managed(ctx, instrumentId);
    const sa = await this.serviceAccount(ctx, account);
    const held = (await this.operators(ctx, instrument)).find((o) => o.user.uniqueId === sa.uniqueId);
    if (!held || rank(held.role) < rank(OPERATOR_ROLE)) {
      await this.deps.grants.set(ctx, instrument.uniqueId, 'users', sa.uniqueId, OPERATOR_ROLE);
    }
    return this.operators(ctx, instrument);
  }

  /** Removes a service account's grant on the instrument; 404 when it holds none. */
  async unbind(ctx: RequestContext, instrumentId: string, account: string): Promise<InstrumentOperator[]> {
    const instrument = await this.managed(ctx, instrumentId);
    const sa = await this.serviceAccount(ctx, account);
    await this.deps.grants.revoke(ctx, instrument.uniqueId, 'users', sa.uniqueId);
    return this.operators(ctx, instrument);
  }

  /** The instrument, once the caller is known to manage it (404 missing, 403 below admin). */
  private async managed(ctx: RequestContext, id: string): Promise<Instrument> {
    const instrument = await this.deps.instruments.get(ctx, id);
    await this.deps.instruments.policy.assertCan(ctx, 'manage', instrument);
    return instrument;
  }

  private async serviceAccount(ctx: RequestContext, account: string): Promise<User> {
    const user = await this.deps.users.resolve(ctx.em, account);
    if (!user) throw notFound('Service account', account);
    if (!user.isServiceAccount) {
      throw validationError('sa_unique_id', `${account} is a person, not a service account`);
    }
    return user;
  }

  private async operators(ctx: RequestContext, instrument: Instrument): Promise<InstrumentOperator[]> {
    const rows = (await this.deps.grants.rowsOf(ctx.em, instrument.uniqueId)).filter(
      (row) => row.principal_type === 'user',
    );
    const users = await Promise.all(rows.map((row) => ctx.loaders.user.load(row.principal_id)));
    return rows.flatMap((row, i) => {
      const user = users[i];
      return user?.isServiceAccount ? [{ user, role: row.permission }] : [];
    });
  }
}
