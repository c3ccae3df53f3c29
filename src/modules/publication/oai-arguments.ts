import type { ListVerb } from './oai-token';
import { datestamp } from './oai-xml';

/** A request's arguments (besides `verb`), by name. */
export type Args = Partial<Record<string, string>>;

export type Verb = 'Identify' | 'ListMetadataFormats' | 'GetRecord' | ListVerb;

/** The arguments each verb takes (besides `verb`), and whether a resumption token may replace them. */
const VERBS: Record<Verb, { required: string[]; optional: string[]; resumable: boolean }> = {
  Identify: { required: [], optional: [], resumable: false },
  ListMetadataFormats: { required: [], optional: ['identifier'], resumable: false },
  ListSets: { required: [], optional: [], resumable: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [], resumable: false },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
};

const PREFIX_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+$/;
const SET_PATTERN = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

/** An OAI-PMH error: answered as `<error code="…">` in the response's envelope. */
export class OaiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a request's `verb` names a verb of the protocol. */
export const isVerb = (verb: string): verb is Verb => Object.hasOwn(VERBS, verb);

/** A date argument: `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`, as the ISO instant it bounds. */
export function dateArgument(name: string, value: string, end: boolean): { iso: string; day: boolean } {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!day && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value))
    throw new OaiError('badArgument', `${name} must be YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ (UTC)`);
  const iso = day ? `${value}T${end ? '23:59:59' : '00:00:00'}Z` : value;
  const t = new Date(iso);
  if (Number.isNaN(t.getTime()) || datestamp(t) !== iso)
    throw new OaiError('badArgument', `${name} is not a date: ${value}`);
  return { iso, day };
}

/**
 * A verb's arguments (besides `verb`) by name, checked against what the verb takes: each once,
 * a resumption token alone, the required ones present and each of the right syntax.
 */
export function checkArguments(verb: Verb, args: [string, string][]): Args {
  const spec = VERBS[verb];
  const out: Args = {};
  for (const [k, v] of args) {
    if (k === 'verb') continue;
    if (Object.hasOwn(out, k)) throw new OaiError('badArgument', `${k} is repeated`);
    const allowed = [...spec.required, ...spec.optional, ...(spec.resumable ? ['resumptionToken'] : [])];
    if (!allowed.includes(k)) throw new OaiError('badArgument', `${verb} takes no argument ${k}`);
    out[k] = v;
  }
  if (out.resumptionToken !== undefined) {
    if (Object.keys(out).length > 1)
      throw new OaiError('badArgument', 'resumptionToken is an exclusive argument');
    return out;
  }
  for (const k of spec.required)
    if (out[k] === undefined) throw new OaiError('badArgument', `${verb} needs ${k}`);
  if (out.metadataPrefix !== undefined && !PREFIX_PATTERN.test(out.metadataPrefix))
    throw new OaiError('badArgument', 'metadataPrefix is not a metadata prefix');
  if (out.set !== undefined && !SET_PATTERN.test(out.set))
    throw new OaiError('badArgument', 'set is not a setSpec');
  if (out.identifier !== undefined && (out.identifier.length > 300 || /\s/.test(out.identifier)))
    throw new OaiError('badArgument', 'identifier is not an identifier');
  const from = out.from === undefined ? null : dateArgument('from', out.from, false);
  const until = out.until === undefined ? null : dateArgument('until', out.until, true);
  if (from && until && from.day !== until.day)
    throw new OaiError('badArgument', 'from and until must have the same granularity');
  if (from && until && from.iso > until.iso) throw new OaiError('badArgument', 'from is later than until');
  return out;
}
