import { HttpError } from '../../../http/errors.js';
import { FilesError } from '../../../services/files.js';

const STATUS = { invalid: 400, 'not-found': 404, taken: 409 } as const;

/** Runs a change to the channel's files; a refusal becomes a 4xx with its reason. */
export async function answeringFilesErrors<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FilesError) throw new HttpError(STATUS[err.kind], err.message);
    throw err;
  }
}
