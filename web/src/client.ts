import type { TypedDocumentString } from './gql/graphql';
import { apiKey, signOut } from './session';

/** One GraphQL error as the service reports it (`extensions.code`: NOT_FOUND, FORBIDDEN, …). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
  ) {
    super(message);
  }
}

interface Reply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

function unpack<T>(status: number, body: Reply<T>, key: string): T {
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    // a key revoked or expired during the session ends it, with the reason on the sign-in form
    if (status === 401 && apiKey.get() === key) signOut(first.message);
    throw new ApiError(first.message, code, status);
  }
  if (!body.data) throw new ApiError(`The service answered ${status} without data`, undefined, status);
  return body.data;
}

/** Runs one typed operation with the session's key (or `key`, for signing in). */
export async function request<R, V>(
  doc: TypedDocumentString<R, V>,
  variables?: V,
  key = apiKey.get() ?? '',
): Promise<R> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: doc.toString(), variables }),
  });
  let body: Reply<R>;
  try {
    body = (await res.json()) as Reply<R>;
  } catch {
    throw new ApiError(`The service answered ${res.status} ${res.statusText}`, undefined, res.status);
  }
  return unpack(res.status, body, key);
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
  const key = apiKey.get() ?? '';
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
    xhr.setRequestHeader('authorization', `Bearer ${key}`);
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
        resolve(unpack(xhr.status, JSON.parse(xhr.responseText) as Reply<R>, key));
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
