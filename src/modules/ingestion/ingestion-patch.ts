import { assertNoProblems, type FieldProblem } from '../../core/errors';
import { WORKER_STATUSES, type IngestionStatus } from './ingestion-request.entity';
import { parseRequestId } from './ingestion-ids';

/**
 * A worker's report on a request, checked. Absent and null fields are left as they are (the
 * legacy client sends null for every argument it was not given).
 */
export interface IngestionPatch {
  status?: IngestionStatus;
  ingestionGithash?: string;
  /** the ingestor the worker used (stored as `ingestor_used`) */
  ingestionClass?: string;
  timeCompleted?: Date;
  errorMessage?: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Checks a PATCH body (`{id, status, ingestion_githash, ingestion_class, time_completed?,
 * error_message?}`, the legacy worker's shape). `id`, when sent, must be the request's own.
 * Every problem is reported at once (422, naming the fields).
 */
export function checkPatch(body: Record<string, unknown>, id: number | null): IngestionPatch {
  const problems: FieldProblem[] = [];
  const out: IngestionPatch = {};
  const text = (field: string, max: number, pattern?: RegExp): string | undefined => {
    const v = body[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.length > max || (pattern && !pattern.test(v))) {
      problems.push({
        field,
        message: `must be ${pattern ? 'a name (letters, digits, _ . -)' : 'a string'} of at most ${max} characters`,
      });
      return undefined;
    }
    return v;
  };
  const sentId = body.id;
  if (sentId !== undefined && sentId !== null && parseRequestId(sentId) !== id) {
    problems.push({ field: 'id', message: 'must be the id of the request in the path' });
  }

  if (body.status !== undefined && body.status !== null) {
    if (typeof body.status === 'string' && (WORKER_STATUSES as readonly string[]).includes(body.status)) {
      out.status = body.status as IngestionStatus;
    } else {
      problems.push({ field: 'status', message: `must be one of: ${WORKER_STATUSES.join(', ')}` });
    }
  }
  out.ingestionGithash = text('ingestion_githash', 100);
  out.ingestionClass = text('ingestion_class', 100, NAME);
  out.errorMessage = text('error_message', 4000);
  const t = body.time_completed;
  if (t !== undefined && t !== null) {
    const date = typeof t === 'string' && WITH_ZONE.test(t) ? new Date(t) : null;
    if (!date || Number.isNaN(date.getTime())) {
      problems.push({ field: 'time_completed', message: 'must be an ISO 8601 date-time with a zone offset' });
    } else out.timeCompleted = date;
  }
  assertNoProblems(problems);
  return out;
}
