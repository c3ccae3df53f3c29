import type { TypedDocumentString } from './gql/graphql';
import { csrfToken, session, sessionEnded } from './session';
import { reach } from './network';

/** One GraphQL error as the service reports it (`extensions.code`: NOT_FOUND, FORBIDDEN, …). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
    /** the input fields at fault (a validation error), by the name the service gives them */
    readonly fields: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

interface Reply<T> {
  data?: T | null;
  errors?: {
    message: string;
    extensions?: { code?: string; fields?: { field: string; message: string }[] };
  }[];
}

function unpack<T>(status: number, body: Reply<T>, sessionId: string | null): T {
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    // a session revoked or expired while in use ends it, with the reason on the sign-in form
    if (status === 401 && session.get()?.session_id === sessionId) sessionEnded(first.message);
    throw new ApiError(first.message, code, status, first.extensions?.fields ?? []);
  }
  if (!body.data) throw new ApiError(`The service answered ${status} without data`, undefined, status);
  return body.data;
}

/** Runs one typed operation in the browser's session (its cookie, and the CSRF token). */
export async function request<R, V>(doc: TypedDocumentString<R, V>, variables?: V): Promise<R> {
  const sessionId = session.get()?.session_id ?? null;
  const res = await reach('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
    body: JSON.stringify({ query: doc.toString(), variables }),
  });
  let body: Reply<R>;
  try {
    body = (await res.json()) as Reply<R>;
  } catch {
    throw new ApiError(`The service answered ${res.status} ${res.statusText}`, undefined, res.status);
  }
  return unpack(res.status, body, sessionId);
}

/**
 * Runs one mutation with a file (the GraphQL multipart request spec) through XMLHttpRequest, which
 * reports upload progress; `fileVariable` names the variable that carries the file.
 */
export function upload<R, V extends Record<string, unknown>>(
  doc: TypedDocumentString<R, V>,
  variables: V,
  fileVariable: keyof V & string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): Promise<R> {
  const sessionId = session.get()?.session_id ?? null;
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({ query: doc.toString(), variables: { ...variables, [fileVariable]: null } }),
  );
  form.append('map', JSON.stringify({ '0': [`variables.${fileVariable}`] }));
  form.append('0', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.withCredentials = true;
    xhr.setRequestHeader('x-csrf-token', csrfToken());
    // Apollo's CSRF prevention: a multipart POST must say it is not a simple form submission
    xhr.setRequestHeader('apollo-require-preflight', 'true');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => {
      reject(new ApiError('The upload failed: the connection was lost', undefined, 0));
    };
    xhr.onload = () => {
      try {
        resolve(unpack(xhr.status, JSON.parse(xhr.responseText) as Reply<R>, sessionId));
      } catch (e) {
        reject(
          e instanceof ApiError
            ? e
            : new ApiError(`The service answered ${xhr.status}`, undefined, xhr.status),
        );
      }
    };
    xhr.send(form);
  });
}
