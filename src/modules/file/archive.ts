import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { ZipFile } from 'yazl';
import type { Logger } from '../../core/logger';
import type { ObjectStore } from '../../core/storage/object-store';
import { attachmentDisposition } from '../../core/storage/keys';
import type { ArchivePlan, DownloadTarget } from './download.service';

/** The archive entry listing the files left out (tab-separated: MFID, name, reason). */
export const SKIPPED_MANIFEST = 'SKIPPED.tsv';

/** Names unique within an archive, handed out one at a time: a repeated `a.h5` becomes `a (2).h5`. */
export class UniqueNames {
  private readonly used = new Set<string>();

  take(name: string): string {
    const ext = path.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let candidate = name;
    for (let n = 2; this.used.has(candidate); n++) candidate = `${stem} (${n})${ext}`;
    this.used.add(candidate);
    return candidate;
  }
}

/** Names unique within the archive: a repeated `a.h5` becomes `a (2).h5`. */
export function uniqueNames(names: string[]): string[] {
  const namer = new UniqueNames();
  return names.map((name) => namer.take(name));
}

/**
 * Streams the plan's targets as one ZIP archive, first the manifest of the files it leaves out
 * (`SKIPPED.tsv`, only when there are any, so a stored file of that name becomes
 * `SKIPPED (2).tsv`; `X-Archive-Skipped` counts them), then the stored files batch by batch as
 * the plan reads them: the first bytes leave before the last batch is read (stored, not
 * compressed: scientific data rarely shrinks and the archive then costs no CPU). Each object is
 * opened only when its turn comes, so memory stays bounded whatever the dataset's size.
 */
export async function streamArchive(
  res: Response,
  store: ObjectStore,
  plan: ArchivePlan,
  archiveName: string,
  log: Logger,
): Promise<void> {
  const { targets, skipped } = plan;
  const zip = new ZipFile();
  const names = new UniqueNames();
  const mtime = new Date();
  if (skipped.length) {
    // nothing is left out silently: the manifest names each file not in the archive and why
    const lines = skipped.map((s) => `${s.fileId}\t${s.filename}\t${s.reason}`);
    zip.addBuffer(
      Buffer.from(`file_mfid\tfilename\treason\n${lines.join('\n')}\n`),
      names.take(SKIPPED_MANIFEST),
      {
        mtime,
        compress: false,
      },
    );
  }
  const output = zip.outputStream as Readable;
  /** the objects being read into the archive */
  const reading = new Set<Readable>();
  const add = (t: DownloadTarget) => {
    zip.addReadStreamLazy(names.take(t.filename), { size: t.size, compress: false, mtime }, (cb) => {
      store.get(t.key).then(
        (object) => {
          if (!object) {
            cb(new Error(`object ${t.key} is missing`), null as never);
          } else if (output.destroyed) {
            object.body.destroy();
            cb(new Error('the archive was abandoned'), null as never);
          } else {
            // yazl listens to none of its input's errors: a failed read ends the archive
            object.body.on('error', (err) => output.destroy(err));
            reading.add(object.body);
            object.body.once('close', () => reading.delete(object.body));
            cb(null, object.body);
          }
        },
        (err: unknown) => {
          cb(err, null as never);
        },
      );
    });
  };
  zip.on('error', (err: Error) => output.destroy(err));
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', attachmentDisposition(archiveName));
  res.setHeader('X-Archive-Skipped', String(skipped.length));
  // settled at once: a client that goes away mid-archive must not leave a rejection unhandled,
  // nor the object being read open (the archive stops pulling from it, and never closes it)
  const sending = pipeline(output, res).then(
    () => null,
    (err: unknown) => {
      for (const body of reading) body.destroy();
      return err;
    },
  );
  try {
    for await (const batch of targets) {
      if (res.destroyed) break; // the client has gone: read no further
      batch.forEach(add);
    }
    zip.end();
  } catch (err) {
    output.destroy(err as Error);
  }
  const failed = await sending;
  if (failed) {
    log.warn({ err: failed }, 'archive download interrupted');
    res.destroy();
  }
}
