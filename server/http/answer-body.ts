import type { Context } from 'koa';
import { BufferPool } from '../util/buffer-pool.js';
import { chunkStream, joinedChunks, jsonArrayChunks, jsonObjectChunks, type JsonMembers } from '../util/json-stream.js';

/** Answers up to this size are encoded into reused buffers; larger ones get their own. */
const POOLED_BYTES = 2 * 1024 * 1024;
/** Shorter texts are encoded into fresh buffers: Node takes small ones from a shared slab. */
const POOLED_FROM_CHARS = 32 * 1024;

const pool = new BufferPool(POOLED_BYTES, 4);
const pooled = new WeakSet<Buffer>();

/**
 * Sets the response body to `text` encoded as UTF-8. Large answers are encoded into a buffer that
 * is used again once the answer has been handed to the socket: a fresh buffer of a megabyte costs
 * more than the encoding (the hub hands freed memory back to the system, so each new one faults
 * its pages in again), and given a string Koa measures its UTF-8 length before Node encodes it.
 */
export function setAnswerBody(ctx: Context, text: string): void {
  if (text.length < POOLED_FROM_CHARS || text.length > POOLED_BYTES || (text.length * 3 > POOLED_BYTES && Buffer.byteLength(text) > POOLED_BYTES)) {
    ctx.body = Buffer.from(text);
    return;
  }
  const buffer = pool.take(POOLED_BYTES);
  answerWithPooled(ctx, buffer, buffer.write(text));
}

/**
 * Answers 200 with a JSON object written member by member (LazyArray members element by element)
 * only as fast as the client reads it: a long list never lies whole in memory.
 */
export function setJsonStream(ctx: Context, members: JsonMembers): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = chunkStream(jsonObjectChunks(members));
}

/** Answers 200 with a JSON array written element by element, only as fast as the client reads it. */
export function setJsonArrayStream(ctx: Context, elements: Iterable<unknown>): void {
  setTextStream(ctx, 'application/json', jsonArrayChunks(elements));
}

/** Answers 200 with text written piece by piece (pieces produced as they are reached), as fast as the client reads it. */
export function setTextStream(ctx: Context, type: string, pieces: Iterable<string>): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.body = chunkStream(joinedChunks(pieces));
}

/** From this many items on, a JSON array is encoded an item at a time. */
const PIECEWISE_FROM_ITEMS = 32;

export interface JsonBodyOptions {
  /**
   * Keys under which the items of an array answer hold objects that many items share (the author
   * of a status): each such object is stringified once per answer and its text written again where
   * it recurs. The answer is the same, byte for byte.
   */
  shared?: readonly string[];
}

/**
 * Sets the response body to `value` as JSON in UTF-8. A long array is stringified an item at a time
 * straight into the answer's buffer: V8 builds a large JSON.stringify result out of many pieces and
 * joins them the first time the text is read, which took longer than stringifying (about 9 ms for
 * channel/stream's 1.9 MB on Node 20). Small texts skip that cost.
 */
export function setJsonBody(ctx: Context, value: unknown, opts: JsonBodyOptions = {}): void {
  const shared = opts.shared?.length ? new SharedObjects(opts.shared) : undefined;
  if (!Array.isArray(value) || value.length < (shared ? 2 : PIECEWISE_FROM_ITEMS)) {
    setAnswerBody(ctx, JSON.stringify(value) ?? 'null');
    return;
  }
  const out = new PieceWriter();
  out.ascii(0x5b); // [
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out.ascii(0x2c); // ,
    if (shared) shared.write(out, value[i]);
    // As JSON.stringify does in an array: what has no JSON form is null.
    else out.text((JSON.stringify(value[i]) as string | undefined) ?? 'null');
  }
  out.ascii(0x5d); // ]
  out.answer(ctx);
}

/** The shared objects of one answer (see JsonBodyOptions) and their texts. */
class SharedObjects {
  private readonly texts = new Map<object, string>();
  /** `"key":` of each key. */
  private readonly heads: string[];
  /**
   * While an item is stringified, its shared objects are replaced by this number, found again in
   * the text as `"key":number` and replaced by the objects' texts. Inside a JSON string every quote
   * is escaped, so that pattern only matches a member; the number is chosen anew for each answer, so
   * that no value of the data is taken for it.
   */
  private readonly mark = 2 ** 52 + Math.floor(Math.random() * 2 ** 51);
  private readonly markText = String(this.mark);

  constructor(private readonly keys: readonly string[]) {
    this.heads = keys.map((key) => `${JSON.stringify(key)}:`);
  }

  write(out: PieceWriter, item: unknown): void {
    if (!item || typeof item !== 'object' || Array.isArray(item) || hasToJson(item)) {
      out.text((JSON.stringify(item) as string | undefined) ?? 'null');
      return;
    }
    const fields = item as Record<string, unknown>;
    const taken: number[] = [];
    const values: object[] = [];
    for (let i = 0; i < this.keys.length; i++) {
      const value = fields[this.keys[i]!];
      if (value && typeof value === 'object' && Object.hasOwn(fields, this.keys[i]!) && !hasToJson(value)) {
        taken.push(i);
        values.push(value);
      }
    }
    if (!taken.length) {
      out.text(JSON.stringify(item));
      return;
    }
    // The item is the handler's answer, which nothing else reads any more.
    for (const i of taken) fields[this.keys[i]!] = this.mark;
    let text: string;
    try {
      text = JSON.stringify(item);
    } finally {
      for (let n = 0; n < taken.length; n++) fields[this.keys[taken[n]!]!] = values[n];
    }
    // One pass over the text, from one member to the next.
    let from = 0;
    let found = 0;
    for (let at = text.indexOf(this.markText); at >= 0 && found < taken.length; at = text.indexOf(this.markText, at + 1)) {
      const next = text.charCodeAt(at + this.markText.length);
      if (next !== 0x2c && next !== 0x7d) continue; // , }
      const n = taken.findIndex((i) => text.startsWith(this.heads[i]!, at - this.heads[i]!.length));
      if (n < 0) continue;
      out.text(text.slice(from, at));
      out.text(this.textOf(values[n]!));
      from = at + this.markText.length;
      found++;
    }
    if (found !== taken.length) throw new Error('a shared object was not found in its item');
    out.text(text.slice(from));
  }

  private textOf(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) this.texts.set(value, (text = JSON.stringify(value)));
    return text;
  }
}

const hasToJson = (value: object) => typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** Sets the response body to these texts one after another, encoded as UTF-8 without joining them first. */
export function setTextPiecesBody(ctx: Context, pieces: readonly string[]): void {
  if (pieces.length === 1) {
    setAnswerBody(ctx, pieces[0]!);
    return;
  }
  const out = new PieceWriter();
  for (const piece of pieces) out.text(piece);
  out.answer(ctx);
}

/** UTF-8 written piece by piece into a pooled buffer, which grows into a buffer of its own when full. */
class PieceWriter {
  private buffer = pool.take(POOLED_BYTES);
  private pooledBuffer = true;
  private end = 0;

  ascii(byte: number): void {
    this.room(1);
    this.buffer[this.end++] = byte;
  }

  text(piece: string): void {
    // The exact length is only measured when the piece might not fit.
    if (this.end + piece.length * 3 > this.buffer.length) this.room(Buffer.byteLength(piece));
    this.end += this.buffer.write(piece, this.end);
  }

  answer(ctx: Context): void {
    if (this.pooledBuffer) answerWithPooled(ctx, this.buffer, this.end);
    else ctx.body = this.buffer.subarray(0, this.end);
  }

  private room(bytes: number): void {
    if (this.end + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.end + bytes));
    this.buffer.copy(larger, 0, 0, this.end);
    if (this.pooledBuffer) pool.give(this.buffer);
    this.buffer = larger;
    this.pooledBuffer = false;
  }
}

/** Answers with the first `length` bytes of a pooled buffer, which goes back to the pool once the socket has it. */
function answerWithPooled(ctx: Context, buffer: Buffer, length: number): void {
  const body = buffer.subarray(0, length);
  pooled.add(body);
  let given = false;
  const giveBack = () => {
    if (given) return;
    given = true;
    pool.give(buffer);
  };
  // 'close' follows 'finish', and comes alone when the client left: either way nothing will
  // read the buffer any more.
  ctx.res.once('finish', giveBack).once('close', giveBack);
  ctx.body = body;
}

/** A body that may be kept after its response (the response cache): pooled ones are copied. */
export function keepableBody(body: Buffer): Buffer {
  return pooled.has(body) ? Buffer.from(body) : body;
}
