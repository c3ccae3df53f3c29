import { assertNoProblems, type FieldProblem } from '../../core/errors';
import { AssociatedFile, SERVICE_STORAGE_BACKEND } from './file.entity';
import { cleanFilename } from './filename';

/** A remote file to catalogue (spec 2.3): a name and where it lives. */
export interface RemoteFileInput {
  filename?: unknown;
  storageBackend?: unknown;
  storagePath?: unknown;
  accessNote?: unknown;
  size?: unknown;
  sha256?: unknown;
}

/** Changes to a file record. Stored files accept filename and storage_path only. */
export type FilePatch = RemoteFileInput;

type RemoteValues = Pick<
  AssociatedFile,
  'filename' | 'storageBackend' | 'storagePath' | 'accessNote' | 'size' | 'sha256'
>;

const BACKEND = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

class Checker {
  readonly problems: FieldProblem[] = [];

  text(value: unknown, field: string, max: number): string | null | undefined {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string') this.problems.push({ field, message: 'must be a string' });
    else if (value.length > max) this.problems.push({ field, message: `must be at most ${max} characters` });
    else return value;
    return undefined;
  }

  backend(value: unknown): string | undefined {
    if (value === undefined || value === null || value === '') {
      this.problems.push({ field: 'storage_backend', message: 'is required for a remote file' });
      return undefined;
    }
    if (typeof value !== 'string' || !BACKEND.test(value)) {
      this.problems.push({
        field: 'storage_backend',
        message: 'must be a backend name such as globus or local',
      });
      return undefined;
    }
    if (value.toLowerCase() === SERVICE_STORAGE_BACKEND) {
      this.problems.push({
        field: 'storage_backend',
        message: `"${SERVICE_STORAGE_BACKEND}" is the service's own storage: upload the file instead`,
      });
      return undefined;
    }
    return value;
  }

  size(value: unknown): number | null | undefined {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      this.problems.push({ field: 'size', message: 'must be a whole number of bytes' });
      return undefined;
    }
    return value;
  }

  sha256(value: unknown): string | null | undefined {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string' || !SHA256.test(value)) {
      this.problems.push({ field: 'sha256_hash', message: 'must be 64 hexadecimal characters' });
      return undefined;
    }
    return value.toLowerCase();
  }

  filename(value: unknown): string | undefined {
    try {
      return cleanFilename(value);
    } catch (err) {
      this.problems.push(...(err as { fields: FieldProblem[] }).fields);
      return undefined;
    }
  }
}

export function checkRemoteInput(input: RemoteFileInput): RemoteValues {
  const c = new Checker();
  const values: RemoteValues = {
    filename: c.filename(input.filename) ?? '',
    storageBackend: c.backend(input.storageBackend) ?? '',
    storagePath: c.text(input.storagePath, 'storage_path', 2000) ?? null,
    accessNote: c.text(input.accessNote, 'access_note', 10000) ?? null,
    size: c.size(input.size) ?? null,
    sha256: c.sha256(input.sha256) ?? null,
  };
  assertNoProblems(c.problems);
  return values;
}

/** Applies a patch to `file` after checking it; nothing changes when any field is wrong. */
export function applyFilePatch(file: AssociatedFile, patch: FilePatch): void {
  const c = new Checker();
  const next: Partial<RemoteValues> = {};
  if (patch.filename !== undefined) next.filename = c.filename(patch.filename);
  if (patch.storagePath !== undefined) next.storagePath = c.text(patch.storagePath, 'storage_path', 2000);
  if (file.storageKey) {
    for (const [key, wire] of [
      ['storageBackend', 'storage_backend'],
      ['accessNote', 'access_note'],
      ['size', 'size'],
      ['sha256', 'sha256_hash'],
    ] as const) {
      if (patch[key] !== undefined) {
        c.problems.push({ field: wire, message: 'is set by the service for files held in its storage' });
      }
    }
  } else {
    if (patch.storageBackend !== undefined) next.storageBackend = c.backend(patch.storageBackend);
    if (patch.accessNote !== undefined) next.accessNote = c.text(patch.accessNote, 'access_note', 10000);
    if (patch.size !== undefined) next.size = c.size(patch.size);
    if (patch.sha256 !== undefined) next.sha256 = c.sha256(patch.sha256);
  }
  assertNoProblems(c.problems);
  Object.assign(file, next);
}
