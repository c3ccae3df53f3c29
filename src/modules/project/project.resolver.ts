import { Arg, Args, Ctx, Extensions, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import type { RequestContext } from '../../core/context';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import { User } from '../user/user.entity';
import { Project } from './project.entity';
import {
  CreateProjectInput,
  ProjectCapabilities,
  ProjectConnection,
  ProjectFilterInput,
  ProjectMemberInput,
  ProjectMembership,
  UpdateProjectInput,
} from './project.types';
import { PROJECT_MAX_MEMBERS, type MemberList } from './project-member.service';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

function memberships({ project, members }: MemberList): ProjectMembership[] {
  return members.map((m) => ({ role: m.role, project, user: m.user }));
}

@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => Project, { description: 'One project, by MFID or slug.' })
  async project(@Arg('id', { description: 'Project MFID or slug.' }) id: string, @Ctx() ctx: RequestContext) {
    const project = await ctx.services.project.get(ctx, id);
    ctx.canonical.add(project);
    return project;
  }

  @Query(() => ProjectConnection, { description: 'Projects, newest first.' })
  projects(
    @Args() args: PageArgs,
    @Arg('filter', () => ProjectFilterInput, {
      nullable: true,
      description: 'Access selectors; all must match.',
    })
    filter: ProjectFilterInput | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const selectors = { ...(filter ?? {}) };
    const request = pageOf(ctx, args);
    return toConnection(
      ProjectConnection,
      () => ctx.services.project.page(ctx, request, selectors),
      () => ctx.services.project.count(ctx, selectors),
    );
  }

  @Mutation(() => Project, { description: 'Creates a project (platform administrators).' })
  createProject(
    @Arg('input', { description: 'The new record.' }) input: CreateProjectInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.project.create(ctx, input);
  }

  @Mutation(() => Project, { description: 'Changes fields of a project, or renames its slug.' })
  updateProject(
    @Arg('id', { description: 'Project MFID or slug.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateProjectInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.project.update(ctx, id, input);
  }

  @Mutation(() => [ProjectMembership], {
    description:
      "Adds a member to a project or changes their role (project admins); returns the project's members. The lead is not a member (CONFLICT).",
  })
  @Extensions(listCap({ items: PROJECT_MAX_MEMBERS }))
  async setProjectMember(
    @Arg('project', { description: 'Project MFID or slug.' }) projectId: string,
    @Arg('member', { description: 'The member and role.' }) member: ProjectMemberInput,
    @Ctx() ctx: RequestContext,
  ) {
    const ref = { field: 'user', value: member.user };
    return memberships(await ctx.services.projectMember.add(ctx, projectId, ref, member.role));
  }

  @Mutation(() => [ProjectMembership], {
    description: "Removes a member from a project (project admins); returns the project's members.",
  })
  @Extensions(listCap({ items: PROJECT_MAX_MEMBERS }))
  async removeProjectMember(
    @Arg('project', { description: 'Project MFID or slug.' }) projectId: string,
    @Arg('user', { description: 'The member: ORCID, MFID, username or email.' }) userId: string,
    @Ctx() ctx: RequestContext,
  ) {
    return memberships(await ctx.services.projectMember.remove(ctx, projectId, { ids: [['user', userId]] }));
  }

  @FieldResolver(() => [ProjectMembership], {
    nullable: true,
    description:
      'Its members and their roles (the lead is not listed; a project has at most 1000 members); null unless you are a member or a project admin.',
  })
  @Extensions(listCap({ items: PROJECT_MAX_MEMBERS }))
  async members(@Root() project: Project, @Ctx() ctx: RequestContext) {
    const members = await ctx.services.projectMember.visible(ctx, project);
    return members && memberships({ project, members });
  }

  @FieldResolver(() => User, { description: 'The project lead (its owner).' })
  lead(@Root() project: Project, @Ctx() ctx: RequestContext) {
    return ctx.loaders.user.load(project.owner.uniqueId);
  }

  @FieldResolver(() => ProjectCapabilities, {
    nullable: true,
    description: 'What you may do with this project; null in collections (not calculated).',
  })
  capabilities(@Root() project: Project, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(project) ? ctx.services.project.policy.capabilities(ctx, project) : null;
  }
}

/** Projects as `Node`s: fetched again by global id, as their single-record reads see them. */
export const PROJECT_NODE = nodeType<Project>(
  'Project',
  isMfid,
  (p) => p.uniqueId,
  (ctx, keys) => ctx.services.project.byIds(ctx, keys),
);
