import { Readable } from 'node:stream';

/** A JSON array whose elements are produced only when the writer reaches it. */
export class LazyArray {
  constructor(readonly elements: () => Iterable<unknown>) {}
}

/** A JSON object written member by member; LazyArray members are written element by element. */
export type JsonMembers = Iterable<[key: string, value: unknown]>;

const CHUNK = 32 * 1024;

/** The text of a JSON object in chunks of about 32 KB, without ever holding more than a chunk. */
export function* jsonObjectChunks(members: JsonMembers): Generator<string> {
  let buf = '{';
  let firstMember = true;
  for (const [key, value] of members) {
    buf += (firstMember ? '' : ',') + JSON.stringify(key) + ':';
    firstMember = false;
    if (!(value instanceof LazyArray)) {
      buf += JSON.stringify(value);
    } else {
      buf += '[';
      let first = true;
      for (const element of value.elements()) {
        buf += (first ? '' : ',') + JSON.stringify(element);
        first = false;
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
      buf += ']';
    }
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  }
  yield buf + '}';
}

/** The text of a JSON array in chunks of about 32 KB, its elements produced only as they are written. */
export function* jsonArrayChunks(elements: Iterable<unknown>): Generator<string> {
  let buf = '[';
  let first = true;
  for (const element of elements) {
    buf += (first ? '' : ',') + JSON.stringify(element);
    first = false;
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  }
  yield buf + ']';
}

/** Pieces of text gathered into chunks of about 32 KB. */
export function* joinedChunks(pieces: Iterable<string>): Generator<string> {
  let buf = '';
  for (const piece of pieces) {
    buf += piece;
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/**
 * A readable stream over chunks, pulled only as fast as the client reads. When the stream ends,
 * fails or is destroyed (client gone), the generator is closed so that its finally blocks run.
 */
export function chunkStream(chunks: Generator<string>): Readable {
  return Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });
}
