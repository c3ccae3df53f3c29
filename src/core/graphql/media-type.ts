import type { ApolloServerPlugin } from '@apollo/server';

/** The two media types a GraphQL answer goes out in (GraphQL over HTTP, "Body"). */
export type GraphqlMediaType = 'application/json' | 'application/graphql-response+json';
const TYPES: readonly GraphqlMediaType[] = ['application/json', 'application/graphql-response+json'];

/**
 * The codes of a request error of a well-formed request: the document does not parse or
 * validate, its variables do not coerce or it is over the query limits. Nothing was executed.
 */
const REQUEST_ERRORS = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'QUERY_TOO_DEEP',
  'QUERY_TOO_COMPLEX',
]);

interface Match {
  q: number;
  /** 2: the type itself; 1: its major type with any subtype; 0: any type */
  specificity: number;
  /** the range's place in the header */
  index: number;
}

/** How `accept` weighs `type`: by the most specific range matching it (RFC 9110 §12.5.1). */
function match(accept: string, type: string): Match | null {
  const [major] = type.split('/');
  let best: Match | null = null;
  for (const [index, item] of accept.split(',').entries()) {
    const [range, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < 0 || (best && specificity <= best.specificity)) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { q: Number.isFinite(q) ? q : 0, specificity, index };
  }
  return best;
}

/** Whether `a` is preferred to `b`: a higher weight, then a more specific range, then the client's order. */
const before = (a: Match, b: Match) =>
  a.q !== b.q
    ? a.q > b.q
    : a.specificity !== b.specificity
      ? a.specificity > b.specificity
      : a.index < b.index;

/**
 * The media type of the answer to a request with this `Accept` header, chosen as Apollo chooses
 * it: `application/json` without one (GraphQL over HTTP: "SHOULD assume application/json") or
 * on a tie; null when the client accepts neither (Apollo then answers 406).
 */
export function graphqlMediaType(accept: string | null | undefined): GraphqlMediaType | null {
  if (!accept?.trim()) return 'application/json';
  let chosen: { type: GraphqlMediaType; m: Match } | null = null;
  for (const type of TYPES) {
    const m = match(accept, type);
    if (m && m.q > 0 && (!chosen || before(m, chosen.m))) chosen = { type, m };
  }
  return chosen?.type ?? null;
}

/**
 * The status of a request error by media type, as GraphQL over HTTP says: a client of
 * `application/json` gets 200 with `errors` (a legacy client reads the body, not the status),
 * one of `application/graphql-response+json` 400. `code` is the error's `extensions.code`; null
 * for an error that is not a request error.
 */
export function requestErrorStatus(accept: string | null | undefined, code: unknown): number | null {
  if (typeof code !== 'string' || !REQUEST_ERRORS.has(code)) return null;
  return graphqlMediaType(accept) === 'application/graphql-response+json' ? 400 : 200;
}

/**
 * Apollo answers every request error with 400 whatever the client accepts: under
 * `application/json` a request error of a well-formed request (no data, every error one of
 * {@link REQUEST_ERRORS}) is 200 instead. The media type is chosen here too, so that the status
 * and the `Content-Type` follow the same negotiation.
 */
export const statusByMediaType: ApolloServerPlugin = {
  requestDidStart() {
    return Promise.resolve({
      willSendResponse({ request, response }) {
        if (response.body.kind !== 'single') return Promise.resolve();
        const accept = request.http?.headers.get('accept');
        const type = graphqlMediaType(accept);
        if (!type) return Promise.resolve();
        response.http.headers.set('content-type', `${type}; charset=utf-8`);
        const { data, errors } = response.body.singleResult;
        if (response.http.status !== 400 || data !== undefined || !errors?.length) return Promise.resolve();
        const statuses = errors.map((e) => requestErrorStatus(accept, e.extensions?.code));
        if (statuses.every((s) => s === 200)) response.http.status = 200;
        return Promise.resolve();
      },
    });
  },
};
