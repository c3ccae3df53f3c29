import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../errors';

/** Runs a write; a unique-constraint violation becomes a 409 with `message`. */
export async function uniquely<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict(message);
    throw err;
  }
}
