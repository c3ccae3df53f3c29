import type { RequestContext } from '../../core/context';
import { assertNoProblems, forbidden, notFound, type FieldProblem } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { uniquely } from '../../core/db/unique';
import type { PageRequest, RowPage } from '../../core/db/page';
import { allows } from '../access/permission';
import type { AccessService } from '../access/access.service';
import type { AccessSelectors } from '../access/access.selectors';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import { Sample } from './sample.entity';
import { checkOptionalDocument } from '../metadata/metadata.document';
import type { MetadataStore } from '../metadata/metadata.store';
import type { SamplePolicy } from './sample.policy';
import { SampleQuery, type SampleFilter } from './sample.query';
import { checkSampleText, sampleTextValues, type SampleText } from './sample.fields';

export interface SampleCreateInput extends SampleText {
  uniqueId?: string | null;
  public?: boolean | null;
  projectId?: string | null;
  projectMfid?: string | null;
  /** flexible owner: ORCID, MFID, username or email; defaults to the caller */
  owner?: string | null;
  /** deprecated owner selector; an error together with `owner` */
  ownerOrcid?: string | null;
  /** initial scientific metadata, stored in the same transaction */
  scientificMetadata?: Record<string, unknown> | null;
}

export interface SamplePatch extends SampleText {
  public?: boolean;
}

export interface SampleDeps {
  users: UserService;
  projects: ProjectService;
  access: AccessService;
  selectors: AccessSelectors;
  policy: SamplePolicy;
  metadata: MetadataStore;
}

/** Sample records: create, read, update and list, under the sample policy. */
export class SampleService {
  readonly policy: SamplePolicy;
  private readonly query: SampleQuery;

  constructor(private readonly deps: SampleDeps) {
    this.policy = deps.policy;
    this.query = new SampleQuery(deps.policy, deps.projects, deps.access, deps.selectors);
  }

  /** A sample the caller may read; 404 otherwise (also for malformed ids). */
  async get(ctx: RequestContext, uniqueId: string): Promise<Sample> {
    const sample = isMfid(uniqueId) ? await ctx.em.findOne(Sample, { uniqueId }) : null;
    if (!sample || !(await this.policy.permission(ctx, sample))) throw notFound('Sample', uniqueId);
    return sample;
  }

  list(ctx: RequestContext, filter: SampleFilter, page: PageRequest): Promise<RowPage<Sample>> {
    return this.query.page(ctx, filter, page);
  }

  count(ctx: RequestContext, filter: SampleFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  async create(ctx: RequestContext, input: SampleCreateInput): Promise<Sample> {
    const problems: FieldProblem[] = checkSampleText(input);
    if (input.uniqueId != null && !isMfid(input.uniqueId)) {
      problems.push({ field: 'unique_id', message: 'must be a 26-character MFID' });
    }
    if (input.public !== undefined && input.public !== null && typeof input.public !== 'boolean') {
      problems.push({ field: 'public', message: 'must be true or false' });
    }
    const metadata = checkOptionalDocument(input.scientificMetadata, 'scientific_metadata');
    assertNoProblems(problems);

    const em = ctx.em;
    const project = await this.deps.projects.resolveSelectors(em, input.projectId, input.projectMfid);
    const owner = await this.deps.users.resolveOwnerInput(ctx, input);
    await this.deps.projects.policy.assertMayCreateIn(ctx, project, owner, 'samples');

    const uniqueId = input.uniqueId ?? newMfid();
    return uniquely(
      () =>
        em.transactional(async (tx) => {
          const sample = tx.create(Sample, {
            uniqueId,
            owner: tx.getReference(User, owner.uniqueId),
            project: project ?? null,
            public: input.public ?? false,
            ...sampleTextValues(input),
          });
          await tx.flush();
          if (metadata) await this.deps.metadata.initialize(tx, 'sample', uniqueId, metadata);
          return sample;
        }),
      `a sample with unique_id ${uniqueId} already exists`,
    );
  }

  async update(ctx: RequestContext, uniqueId: string, patch: SamplePatch): Promise<Sample> {
    const sample = await this.get(ctx, uniqueId);
    const permission = await this.policy.assertCan(ctx, 'update', sample);
    if (patch.public !== undefined && !allows(permission, 'manage')) {
      throw forbidden('Making a sample public or private needs admin permission on it');
    }
    assertNoProblems(checkSampleText(patch));
    Object.assign(sample, sampleTextValues(patch));
    if (patch.public !== undefined) sample.public = patch.public;
    await ctx.em.flush();
    return sample;
  }
}
