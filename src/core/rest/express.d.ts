import type { RequestContext } from '../context';

declare global {
  namespace Express {
    interface Request {
      /** Set by the request-id middleware on every request. */
      requestId: string;
      /** Set by the authentication middleware on authenticated routes. */
      ctx?: RequestContext;
    }
  }
}
export {};
