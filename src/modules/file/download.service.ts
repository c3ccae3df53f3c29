import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import type { Config } from '../../core/config';
import { AppError } from '../../core/errors';
import type { ObjectStore } from '../../core/storage/object-store';
import type { SignedObject, UrlSigner } from '../../core/storage/url-signer';
import type { AssociatedFile } from './file.entity';
import type { FileService } from './file.service';
import { previewFile, previewKind, type FilePreview } from './file-preview';
import type { EmbargoGate } from '../access/embargo';

/** What a download of one stored file needs. */
export interface DownloadTarget {
  key: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface LinkOptions {
  /**
   * Hand out the service's own signed URL even when the store can presign (S3): the legacy
   * client sends its API key with every request, which S3 rejects next to a presigned
   * signature and which must not reach the storage host. The service URL redirects to S3.
   */
  viaService?: boolean;
}

export function remoteFileError(file: AssociatedFile): AppError {
  const where = file.storagePath ? ` Location: ${file.storagePath}.` : ' Its location is not set yet.';
  const note = file.accessNote ? ` Access: ${file.accessNote}` : '';
  return new AppError(
    'CONFLICT',
    `File ${file.uniqueId} is a remote file on "${file.storageBackend}", not in the service storage: the service cannot download it.${where}${note}`,
  );
}

/** What a dataset archive holds (in batches, read as it streams), and what it leaves out and why (its manifest). */
export interface ArchivePlan {
  targets: AsyncIterable<DownloadTarget[]>;
  skipped: { fileId: string; filename: string; reason: string }[];
}

/**
 * Downloads of stored files (DESIGN §6): signed URLs valid for one hour (S3 presigned, or the
 * service's own HMAC-signed URLs), and what a streamed download needs. Remote files are never
 * downloadable; dataset-wide operations skip them.
 */
export class DownloadService {
  readonly store: ObjectStore;
  readonly signer: UrlSigner;

  constructor(
    private readonly deps: {
      config: Config;
      store: ObjectStore;
      signer: UrlSigner;
      files: FileService;
      /** the embargo rule: every byte this service hands out passes it */
      embargo: EmbargoGate;
    },
  ) {
    this.store = deps.store;
    this.signer = deps.signer;
  }

  /** For a verified service URL on a store that presigns: where to send the caller instead. */
  redirectUrl(grant: SignedObject): Promise<string | null> {
    const left = grant.expires - Math.floor(Date.now() / 1000);
    return this.store.presignedUrl(grant.key, {
      expiresInSeconds: Math.max(60, Math.min(left, this.ttl)),
      filename: grant.filename,
      contentType: grant.contentType,
    });
  }

  private get ttl(): number {
    return this.deps.config.uploads.downloadUrlTtlSeconds;
  }

  target(file: AssociatedFile): DownloadTarget {
    if (!file.storageKey) throw remoteFileError(file);
    return {
      key: file.storageKey,
      filename: file.filename,
      contentType: file.contentType ?? 'application/octet-stream',
      size: file.size ?? 0,
    };
  }

  /**
   * A signed URL of a stored file (anyone holding it may GET it, with Range, for an hour). While
   * the file's dataset is under embargo (`exempt`: the caller holds a role on it, checked before)
   * the link is the service's own, marked as handed out under the embargo; any other service link
   * stops working when an embargo starts (`signedLinkOpen`).
   */
  async url(file: AssociatedFile, opts: LinkOptions = {}, exempt = false): Promise<string> {
    const t = this.target(file);
    if (!opts.viaService && !exempt) {
      const presigned = await this.deps.store.presignedUrl(t.key, {
        expiresInSeconds: this.ttl,
        filename: t.filename,
        contentType: t.contentType,
      });
      if (presigned) return presigned;
    }
    return this.deps.signer.objectUrl({
      key: t.key,
      filename: t.filename,
      contentType: t.contentType,
      expires: Math.floor(Date.now() / 1000) + this.ttl,
      ...(exempt ? { embargoExempt: true } : {}),
    });
  }

  /**
   * Whether a verified service link may still be served: always when it was handed out under an
   * embargo to a caller exempt from it, otherwise only while the object's dataset (the first
   * segment of its key) is not under embargo.
   */
  async signedLinkOpen(em: EntityManager, grant: SignedObject): Promise<boolean> {
    if (grant.embargoExempt) return true;
    return !(await this.deps.embargo.embargoedNow(em, grant.key.split('/')[0]));
  }

  /**
   * The file (404 when unreadable), once its bytes are readable by the caller (403 under
   * embargo): the check of downloads, links and previews (the rule of file/byte-access.ts).
   */
  async readableFile(ctx: RequestContext, fileId: string): Promise<AssociatedFile> {
    const file = await this.deps.files.get(ctx, fileId);
    await this.deps.embargo.assertBytesReadable(ctx, file.dataset.uniqueId);
    return file;
  }

  /**
   * The preview of a file whose bytes the caller may read (the one byte check above: an
   * unreadable file is 404 as a missing one); an HDF5 file's is its own recorded structure.
   */
  async preview(ctx: RequestContext, fileId: string): Promise<FilePreview> {
    const file = await this.readableFile(ctx, fileId);
    const recorded =
      previewKind(file) === 'hdf5' ? await this.deps.files.structureOf(ctx.em, file.uniqueId) : null;
    return previewFile(this.store, file, recorded);
  }

  /** Whether a dataset the caller may read the bytes of is under embargo now (the caller exempt). */
  private exempt(ctx: RequestContext, datasetId: string): Promise<boolean> {
    return this.deps.embargo.embargoedNow(ctx.em, datasetId);
  }

  /**
   * The signed URL of a file the caller reads, for GraphQL `File.downloadUrl` (batched through
   * the embargo's per-request loader): 403 while its dataset is under embargo for the caller.
   */
  async linkOf(ctx: RequestContext, file: AssociatedFile): Promise<string> {
    const state = await (await this.deps.embargo.bytesLoader(ctx)).load(file.dataset.uniqueId);
    if (state === 'closed') await this.deps.embargo.assertBytesReadable(ctx, file.dataset.uniqueId);
    return this.url(file, {}, state === 'exempt');
  }

  async fileTarget(ctx: RequestContext, fileId: string): Promise<DownloadTarget> {
    return this.target(await this.readableFile(ctx, fileId));
  }

  async fileLink(ctx: RequestContext, fileId: string, opts: LinkOptions = {}): Promise<string> {
    const file = await this.readableFile(ctx, fileId);
    return this.url(file, opts, await this.exempt(ctx, file.dataset.uniqueId));
  }

  /** `{file MFID: signed URL}` for the dataset's stored files; 404 when it has none. */
  async datasetLinks(
    ctx: RequestContext,
    datasetId: string,
    opts: LinkOptions = {},
    page?: { limit: number; offset: number; after?: string },
  ): Promise<Record<string, string>> {
    const stored = (await this.deps.files.ofDataset(ctx, datasetId, page)).filter((f) => f.storageKey);
    await this.deps.embargo.assertBytesReadable(ctx, datasetId);
    // this wording makes older clients read the 404 as "no links" rather than an error
    if (!stored.length) throw new AppError('NOT_FOUND', `No files found in storage for dataset ${datasetId}`);
    const exempt = await this.exempt(ctx, datasetId);
    const links: Record<string, string> = {};
    for (const f of stored) links[f.uniqueId] = await this.url(f, opts, exempt);
    return links;
  }

  /**
   * The files of a dataset whose names match any of `include` (all when empty): the stored ones
   * to archive, and the ones left out with the reason (remote files), for the archive's manifest.
   */
  async archiveTargets(ctx: RequestContext, datasetId: string, include: string[]): Promise<ArchivePlan> {
    const matchers = include.map(globToRegExp);
    const wanted = (name: string) => matchers.length === 0 || matchers.some((m) => m.test(name));
    const files = await this.deps.files.archiveFiles(ctx, datasetId);
    await this.deps.embargo.assertBytesReadable(ctx, datasetId);
    const skipped = files.remote
      .filter((f) => wanted(f.filename))
      .map((f) => ({
        fileId: f.unique_id,
        filename: f.filename,
        reason: `remote file on "${f.storage_backend}"${f.storage_path ? ` at ${f.storage_path}` : ''}: not in the service storage`,
      }));
    async function* targets(): AsyncIterable<DownloadTarget[]> {
      for await (const batch of files.stored) {
        yield batch
          .filter((f) => wanted(f.filename))
          .map((f) => ({
            key: f.storage_key ?? '',
            filename: f.filename,
            contentType: f.content_type ?? 'application/octet-stream',
            size: f.size ?? 0,
          }));
      }
    }
    return { targets: targets(), skipped };
  }
}

/** A shell-style pattern (`*`, `?`, `[abc]`, `[!abc]`), matched against the whole name. */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let set = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        if (set.startsWith('!')) set = `^${set.slice(1)}`;
        out += `[${set}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}
