import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { and, likeEscape, sql, type Sql } from '../../core/db/sql';
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import type { AccessService } from '../permission/access.service';
import type { ProjectService } from '../project/project.service';
import { Dataset } from '../dataset/dataset.entity';
import { Sample } from '../sample/sample.entity';
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
  projectId?: string;
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

  async datasets(ctx: RequestContext, input: SearchInput): Promise<Dataset[]> {
    const where = and(
      await this.projectFilter(ctx, 'd', input.projectId),
      notHiddenByDeletion('d.unique_id'),
      await this.access.readableCondition(ctx, 'd'),
    );
    return this.run(ctx, Dataset, 'dataset d', 'd.dataset_name', where, input);
  }

  async samples(ctx: RequestContext, input: SearchInput): Promise<Sample[]> {
    const where = and(
      await this.projectFilter(ctx, 's', input.projectId),
      notHiddenByDeletion('s.unique_id'),
      await this.access.readableCondition(ctx, 's'),
    );
    return this.run(ctx, Sample, 'sample s', 's.sample_name', where, input);
  }

  /** Projects are directory records: every caller may find them by title or slug. */
  projectsByName(ctx: RequestContext, input: SearchInput): Promise<Project[]> {
    return this.run(
      ctx,
      Project,
      'project p',
      `(coalesce(p.title, '') || ' ' || p.project_id)`,
      sql('true'),
      input,
    );
  }

  /** Instruments, by name, type and manufacturer. */
  instruments(ctx: RequestContext, input: SearchInput): Promise<Instrument[]> {
    const text = `(i.instrument_name || ' ' || coalesce(i.instrument_type, '') || ' ' || coalesce(i.manufacturer, ''))`;
    return this.run(ctx, Instrument, 'instrument i', text, sql('true'), input);
  }

  /** Users, by username, first and last name (callers render public profiles). */
  users(ctx: RequestContext, input: SearchInput): Promise<User[]> {
    const text = `(coalesce(u.username, '') || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`;
    return this.run(ctx, User, 'app_user u', text, sql('true'), input);
  }

  private async run<T extends object>(
    ctx: RequestContext,
    entity: EntityName<T>,
    from: string,
    text: string,
    where: Sql,
    input: SearchInput,
  ): Promise<T[]> {
    const q = typeof input.q === 'string' ? input.q.trim() : '';
    if (q.length < MIN_QUERY) throw validationError('q', `must be at least ${MIN_QUERY} characters`);
    if (q.length > 200) throw validationError('q', 'must be at most 200 characters');
    if (!Number.isInteger(input.limit) || input.limit < 1)
      throw validationError('limit', 'must be at least 1');
    const alias = from.split(' ')[1];
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select ${alias}.* from ${from}
       where (? <% ${text} or ${text} ilike ? escape '\\') and (${where.sql})
       order by word_similarity(?, ${text}) desc, ${text} asc
       limit ?`,
      [q, `%${likeEscape(q)}%`, ...where.params, q, Math.min(input.limit, MAX_LIMIT)],
    );
    return rows.map((row) => ctx.em.map(entity, row as EntityDictionary<T>));
  }

  private async projectFilter(ctx: RequestContext, alias: string, projectId?: string): Promise<Sql | null> {
    if (projectId === undefined || projectId === '') return null;
    const project = await this.projects.find(ctx.em, projectId);
    return sql(`${alias}.project_mfid = ?`, project?.uniqueId ?? '');
  }
}
