import type { Context } from 'koa';
import { BufferPool } from '../util/buffer-pool.js';

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

/** From this many items on, a JSON array is encoded an item at a time. */
const PIECEWISE_FROM_ITEMS = 32;

/**
 * Sets the response body to `value` as JSON in UTF-8. A long array is stringified an item at a time
 * straight into the answer's buffer: V8 builds a large JSON.stringify result out of many pieces and
 * joins them the first time the text is read, which took longer than stringifying (about 9 ms for
 * channel/stream's 1.9 MB on Node 20). Small texts skip that cost.
 */
export function setJsonBody(ctx: Context, value: unknown): void {
  if (!Array.isArray(value) || value.length < PIECEWISE_FROM_ITEMS) {
    setAnswerBody(ctx, JSON.stringify(value) ?? 'null');
    return;
  }
  let buffer = pool.take(POOLED_BYTES);
  let pooledBuffer = true;
  let end = 0;
  const ensure = (bytes: number) => {
    if (end + bytes <= buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, end + bytes));
    buffer.copy(larger, 0, 0, end);
    if (pooledBuffer) pool.give(buffer);
    buffer = larger;
    pooledBuffer = false;
  };
  buffer[end++] = 0x5b; // [
  for (let i = 0; i < value.length; i++) {
    // As JSON.stringify does in an array: what has no JSON form is null.
    const piece = (JSON.stringify(value[i]) as string | undefined) ?? 'null';
    // One byte for the comma, one for the closing bracket; the exact length only when it might not fit.
    if (end + piece.length * 3 + 2 > buffer.length) ensure(Buffer.byteLength(piece) + 2);
    if (i > 0) buffer[end++] = 0x2c; // ,
    end += buffer.write(piece, end);
  }
  buffer[end++] = 0x5d; // ]
  if (pooledBuffer) answerWithPooled(ctx, buffer, end);
  else ctx.body = buffer.subarray(0, end);
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
