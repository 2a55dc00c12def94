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
  const body = buffer.subarray(0, buffer.write(text));
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
