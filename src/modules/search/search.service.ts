import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { and, inList, likeEscape, or, sql, type Sql } from '../../core/db/sql';
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import type { AccessService } from '../permission/access.service';
import type { ProjectService } from '../project/project.service';
import { DATASET_ROWS, type DatasetRow } from '../dataset/dataset-row';
import { SAMPLE_ROWS, type SampleRow } from '../sample/sample-row';
import { rowsSelect, type RawRow } from '../owned-record/owned-record-row';
import { Project } from '../project/project.entity';
import { Instrument } from '../instrument/instrument.entity';
import { User } from '../user/user.entity';
import { notHiddenByDeletion } from '../permission/deletion-visibility';

export const MIN_QUERY = 3;
export const MAX_LIMIT = 50;

export interface SearchInput {
  q: unknown;
  limit: number;
  /** datasets and samples: only those of this project (slug or MFID) */
  projectId?: string | null;
}

/**
 * Typo-tolerant name search (pg_trgm): a record matches when the query is similar to a word
 * sequence of its searched text (`<%`, word similarity at least 0.6) or is a substring of it;
 * best matches first. Trigram GIN indexes serve both tests. Only records the caller may read
 * are searched; datasets and samples hidden by a pending deletion request are left out.
 */
export class SearchService {
  constructor(
    private readonly access: AccessService,
    private readonly projects: ProjectService,
  ) {}

  async datasets(ctx: RequestContext, input: SearchInput): Promise<DatasetRow[]> {
    const where = and(
      await this.projectFilter(ctx, 'd', input.projectId),
      notHiddenByDeletion('d.unique_id'),
      await this.access.readableCondition(ctx, 'dataset', 'd'),
    );
    const select = rowsSelect(DATASET_ROWS, {}, 'dataset d');
    return this.run(ctx, select, 'd.dataset_name', where, input, (r: RawRow) => DATASET_ROWS.row(r));
  }

  async samples(ctx: RequestContext, input: SearchInput): Promise<SampleRow[]> {
    const where = and(
      await this.projectFilter(ctx, 's', input.projectId),
      notHiddenByDeletion('s.unique_id'),
      await this.access.readableCondition(ctx, 'sample', 's'),
    );
    const select = rowsSelect(SAMPLE_ROWS, {}, 'sample s');
    return this.run(ctx, select, 's.sample_name', where, input, (r: RawRow) => SAMPLE_ROWS.row(r));
  }

  /** Projects are directory records: every caller may find them by title or slug. */
  projectsByName(ctx: RequestContext, input: SearchInput): Promise<Project[]> {
    return this.run(
      ctx,
      'select p.* from project p',
      `(coalesce(p.title, '') || ' ' || p.project_id)`,
      sql('true'),
      input,
      this.entities(ctx, Project),
    );
  }

  /**
   * Instruments, by name, type and manufacturer; `status` keeps those in one of these statuses,
   * `affiliation` those the caller owns or maintains (an editor or admin grant), either of them.
   */
  instruments(
    ctx: RequestContext,
    input: SearchInput & { status?: readonly string[]; affiliation?: readonly ('owner' | 'maintainer')[] },
  ): Promise<Instrument[]> {
    const text = `(i.instrument_name || ' ' || coalesce(i.instrument_type, '') || ' ' || coalesce(i.manufacturer, ''))`;
    const mine = input.affiliation ?? [];
    const where = and(
      input.status?.length ? inList('i.status', [...input.status]) : null,
      mine.length
        ? or(
            mine.includes('owner') ? sql('i.owner_id = ?', ctx.userId) : null,
            mine.includes('maintainer')
              ? sql(
                  `exists (select 1 from access_grant g where g.resource_id = i.unique_id and g.principal_type = 'user'
                   and g.principal_id = ? and g.permission in ('editor', 'admin'))`,
                  ctx.userId,
                )
              : null,
          )
        : null,
    );
    return this.run(ctx, 'select i.* from instrument i', text, where, input, this.entities(ctx, Instrument));
  }

  /** Users, by username, first and last name (callers render public profiles). */
  users(ctx: RequestContext, input: SearchInput): Promise<User[]> {
    const text = `(coalesce(u.username, '') || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`;
    return this.run(ctx, 'select u.* from app_user u', text, sql('true'), input, this.entities(ctx, User));
  }

  /** Rows of `select` as entities of `entity`. */
  private entities<T extends object>(ctx: RequestContext, entity: EntityName<T>) {
    return (row: RawRow) => ctx.em.map(entity, row as EntityDictionary<T>);
  }

  /** The matches among the rows of `select` (`select … from …`), mapped by `map`. */
  private async run<T>(
    ctx: RequestContext,
    select: string,
    text: string,
    where: Sql,
    input: SearchInput,
    map: (row: RawRow) => T,
  ): Promise<T[]> {
    const q = typeof input.q === 'string' ? input.q.trim() : '';
    if (q.length < MIN_QUERY) throw validationError('q', `must be at least ${MIN_QUERY} characters`);
    if (q.length > 200) throw validationError('q', 'must be at most 200 characters');
    if (!Number.isInteger(input.limit) || input.limit < 1)
      throw validationError('limit', 'must be at least 1');
    const rows = await rawQuery<RawRow>(
      ctx.em,
      `${select}
       where (? <% ${text} or ${text} ilike ? escape '\\') and (${where.sql})
       order by word_similarity(?, ${text}) desc, ${text} asc
       limit ?`,
      [q, `%${likeEscape(q)}%`, ...where.params, q, Math.min(input.limit, MAX_LIMIT)],
    );
    return rows.map(map);
  }

  private async projectFilter(
    ctx: RequestContext,
    alias: string,
    projectId?: string | null,
  ): Promise<Sql | null> {
    // absent, GraphQL null and empty alike: no project filter (null once narrowed to no record at all)
    if (projectId === undefined || projectId === null || projectId === '') return null;
    const project = await this.projects.find(ctx.em, projectId);
    return sql(`${alias}.project_mfid = ?`, project?.uniqueId ?? '');
  }
}
