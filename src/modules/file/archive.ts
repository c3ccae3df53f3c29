import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { ZipFile } from 'yazl';
import type { Logger } from '../../core/logger';
import type { ObjectStore } from '../../core/storage/object-store';
import { attachmentDisposition } from '../../core/storage/keys';
import type { ArchivePlan } from './download.service';

/** The archive entry listing the files left out (tab-separated: MFID, name, reason). */
export const SKIPPED_MANIFEST = 'SKIPPED.tsv';

/** Names unique within the archive: a repeated `a.h5` becomes `a (2).h5`. */
export function uniqueNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const ext = path.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate);
    return candidate;
  });
}

/**
 * Streams the plan's targets as one ZIP archive, first the manifest of the files it leaves out
 * (`SKIPPED.tsv`, only when there are any; `X-Archive-Skipped` counts them) (stored, not compressed: scientific data rarely shrinks
 * and the archive then costs no CPU). Each object is opened only when its turn comes, so memory
 * stays bounded whatever the dataset's size.
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
  const names = uniqueNames([...targets.map((t) => t.filename), SKIPPED_MANIFEST]);
  const mtime = new Date();
  if (skipped.length) {
    // nothing is left out silently: the manifest names each file not in the archive and why
    const lines = skipped.map((s) => `${s.fileId}\t${s.filename}\t${s.reason}`);
    zip.addBuffer(Buffer.from(`file_mfid\tfilename\treason\n${lines.join('\n')}\n`), names[targets.length], {
      mtime,
      compress: false,
    });
  }
  targets.forEach((t, i) => {
    zip.addReadStreamLazy(names[i], { size: t.size, compress: false, mtime }, (cb) => {
      store.get(t.key).then(
        (object) => {
          if (object) cb(null, object.body);
          else cb(new Error(`object ${t.key} is missing`), null as never);
        },
        (err: unknown) => {
          cb(err, null as never);
        },
      );
    });
  });
  const output = zip.outputStream as Readable;
  zip.on('error', (err: Error) => output.destroy(err));
  zip.end();
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', attachmentDisposition(archiveName));
  res.setHeader('X-Archive-Skipped', String(skipped.length));
  try {
    await pipeline(output, res);
  } catch (err) {
    log.warn({ err }, 'archive download interrupted');
    res.destroy();
  }
}
