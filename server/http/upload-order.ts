/*
 * Formidable lists a field's files in the order they finish writing to disk, which is not the order
 * they were sent in (a large first photo finishes after the small ones behind it). Files are
 * numbered as their parts begin, which is the order of the request, and listed by that number.
 */
const begun = new WeakMap<object, number>();
let next = 0;

/** formidable's fileBegin: called for each file part in the order of the request. */
export function numberUpload(_field: string, file: object): void {
  begun.set(file, next++);
}

/** The files of one field in the order they were sent. */
export function inSentOrder<F extends object>(files: F[]): F[] {
  return [...files].sort((a, b) => (begun.get(a) ?? 0) - (begun.get(b) ?? 0));
}
