import { assertMayReadBytes } from '../file/byte-access';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { and, inList } from '../../core/db/sql';
import { isMfid } from '../../core/ids';
import type { Dataset } from '../dataset/dataset.entity';
import type { DatasetService } from '../dataset/dataset.service';
import type { EmbargoGate } from '../access/embargo';
import { Thumbnail } from './thumbnail.entity';
import { decodeBase64Image, toJpeg } from './thumbnail-image';

export interface ThumbnailInput {
  name?: unknown;
  /** base64 image data */
  image?: unknown;
}

const MAX_NAME = 255;

function cleanName(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw validationError('thumbnail_name', 'must be a string');
  const name = raw.trim();
  if (!name) throw validationError('thumbnail_name', 'must not be empty');
  if (name.length > MAX_NAME)
    throw validationError('thumbnail_name', `must be at most ${MAX_NAME} characters`);
  return name;
}

/**
 * Thumbnails of datasets (spec 2.4): added by contributors, changed and deleted by editors,
 * readable with their dataset. Images are stored as JPEG whatever was sent, so `mime_type`
 * (always image/jpeg) is authoritative, not the extension in the name.
 */
export class ThumbnailService {
  constructor(
    private readonly datasets: DatasetService,
    /** the embargo rule: an image is bytes (closed under embargo to callers without a role) */
    private readonly embargo: EmbargoGate,
  ) {}

  /** A dataset's thumbnails: 404 when it is unreadable, 403 while its bytes are under embargo. */
  async ofDataset(ctx: RequestContext, datasetId: string): Promise<Thumbnail[]> {
    const ds = await this.datasets.get(ctx, datasetId);
    await this.embargo.assertBytesReadable(ctx, ds.uniqueId);
    return ctx.em.find(Thumbnail, { dataset: ds.uniqueId }, { orderBy: { id: 'asc' } });
  }

  async add(ctx: RequestContext, datasetId: string, input: ThumbnailInput): Promise<Thumbnail> {
    const name = cleanName(input.name);
    const image = decodeBase64Image(input.image);
    const ds = await this.datasets.get(ctx, datasetId);
    await this.datasets.policy.assertCan(ctx, 'contribute', ds);
    const thumbnail = ctx.em.create(Thumbnail, {
      dataset: ds,
      thumbnailName: name ?? `${ds.uniqueId}_thumbnail`,
      data: await toJpeg(image),
    });
    await ctx.em.flush();
    return thumbnail;
  }

  /** Renames a thumbnail and/or replaces its image. `datasetId`, when given, must be its dataset. */
  async update(
    ctx: RequestContext,
    id: unknown,
    input: ThumbnailInput,
    datasetId?: string,
  ): Promise<Thumbnail> {
    const name = cleanName(input.name);
    const image =
      input.image === undefined || input.image === null ? undefined : decodeBase64Image(input.image);
    if (name === undefined && image === undefined) {
      throw validationError('thumbnail_name', 'give a new thumbnail_name and/or thumbnail_b64str');
    }
    const { thumbnail, ds } = await this.find(ctx, id, datasetId);
    await this.datasets.policy.assertCan(ctx, 'update', ds);
    if (name !== undefined) thumbnail.thumbnailName = name;
    if (image !== undefined) thumbnail.data = await toJpeg(image);
    await ctx.em.flush();
    return thumbnail;
  }

  async delete(ctx: RequestContext, id: unknown, datasetId?: string): Promise<Thumbnail> {
    const { thumbnail, ds } = await this.find(ctx, id, datasetId);
    await this.datasets.policy.assertCan(ctx, 'update', ds);
    const deleted = { ...thumbnail, id: thumbnail.id };
    await ctx.em.remove(thumbnail).flush();
    return deleted;
  }

  /** Any image sharp reads, as the JPEG a thumbnail stores (fails when it is not an image). */
  prepare(image: Buffer): Promise<Buffer> {
    return toJpeg(image, 'thumbnail');
  }

  /**
   * Stores a generated thumbnail (JPEG from {@link prepare}) inside `tx`, replacing the
   * dataset's thumbnails of the same name, without permission checks: ingestion regenerates
   * its thumbnails on every run instead of adding copies.
   */
  async replaceIn(tx: EntityManager, datasetId: string, name: string, jpeg: Buffer): Promise<void> {
    await rawQuery(tx, 'delete from thumbnail where dataset_mfid = ? and thumbnail_name = ?', [
      datasetId,
      name,
    ]);
    await rawQuery(
      tx,
      `insert into thumbnail (dataset_mfid, thumbnail_name, mime_type, data) values (?, ?, 'image/jpeg', ?)`,
      [datasetId, name, jpeg],
    );
  }

  /**
   * A thumbnail's image for its URL (`GET /thumbnails/{id}/image`): through the one byte check
   * ({@link assertMayReadBytes}); a thumbnail of a dataset the caller may not read is 404, as a
   * missing one. The ETag is its id and last change ({@link thumbnailVersion}).
   */
  async image(ctx: RequestContext, rawId: string): Promise<{ type: string; bytes: Buffer; etag: string }> {
    const id = Number(rawId);
    const thumbnail =
      /^[1-9][0-9]{0,15}$/.test(rawId) && Number.isSafeInteger(id)
        ? await ctx.em.findOne(Thumbnail, { id })
        : null;
    if (!thumbnail) throw notFound('Thumbnail', rawId);
    await assertMayReadBytes(
      { datasets: this.datasets, embargo: this.embargo },
      ctx,
      thumbnail.dataset.uniqueId,
      () => notFound('Thumbnail', rawId),
    );
    return { type: thumbnail.mimeType, bytes: thumbnail.data, etag: `"${thumbnailVersion(thumbnail)}"` };
  }

  /** The thumbnails of these ids on datasets the caller may read (and not under embargo for them), in one statement. */
  async readable(ctx: RequestContext, ids: readonly number[]): Promise<Thumbnail[]> {
    if (!ids.length) return [];
    const where = and(
      inList('t.id', ids),
      await this.datasets.policy.visibleWhere(ctx, 'd'),
      await this.embargo.bytesReadableCondition(ctx, 'd'),
    );
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select t.* from thumbnail t join dataset d on d.unique_id = t.dataset_mfid where ${where.sql}`,
      where.params,
    );
    return rows.map((row) => ctx.em.map(Thumbnail, row));
  }

  /**
   * The first thumbnail of each readable dataset among `datasetIds` that has one; datasets whose
   * bytes are under embargo for the caller are left out, as those without one.
   */
  async firstOf(ctx: RequestContext, datasetIds: readonly string[]): Promise<Map<string, Thumbnail>> {
    const ids = [...new Set(datasetIds.filter(isMfid))];
    if (!ids.length) return new Map();
    const where = and(
      inList('t.dataset_mfid', ids),
      await this.datasets.policy.visibleWhere(ctx, 'd'),
      await this.embargo.bytesReadableCondition(ctx, 'd'),
    );
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select distinct on (t.dataset_mfid) t.* from thumbnail t join dataset d on d.unique_id = t.dataset_mfid
       where ${where.sql} order by t.dataset_mfid, t.id`,
      where.params,
    );
    const out = new Map<string, Thumbnail>();
    for (const row of rows) {
      const t = ctx.em.map(Thumbnail, row);
      out.set(t.dataset.uniqueId, t);
    }
    return out;
  }

  private async find(
    ctx: RequestContext,
    rawId: unknown,
    datasetId?: string,
  ): Promise<{ thumbnail: Thumbnail; ds: Dataset }> {
    const id = typeof rawId === 'number' ? rawId : Number(rawId);
    const thumbnail = Number.isSafeInteger(id) && id > 0 ? await ctx.em.findOne(Thumbnail, { id }) : null;
    if (!thumbnail || (datasetId !== undefined && thumbnail.dataset.uniqueId !== datasetId)) {
      throw notFound('Thumbnail', String(rawId));
    }
    try {
      return { thumbnail, ds: await this.datasets.get(ctx, thumbnail.dataset.uniqueId) };
    } catch {
      throw notFound('Thumbnail', String(rawId));
    }
  }
}

/** What changes when a thumbnail's image may have: its id and last change (the `v` of its URL, its ETag). */
export const thumbnailVersion = (t: Pick<Thumbnail, 'id' | 'modificationTime'>): string =>
  `${t.id}-${new Date(t.modificationTime).getTime().toString(36)}`;

/** The service path of a thumbnail's image (GraphQL `Thumbnail.url`). */
export const thumbnailPath = (t: Pick<Thumbnail, 'id' | 'modificationTime'>): string =>
  `/api/v2/thumbnails/${t.id}/image?v=${thumbnailVersion(t)}`;
