import type { Context } from 'koa';
import { dataGeneration } from '../store/generation.js';

const taken = new WeakMap<Context, string>();

/**
 * The data generation as first read during this request. The login check and the response cache
 * both compare against it, and one read serves both: each read is a SQLite read transaction, a
 * good part of the cost of a cached answer.
 */
export function requestGeneration(ctx: Context): string {
  let generation = taken.get(ctx);
  if (generation === undefined) taken.set(ctx, (generation = dataGeneration(ctx.hub.db)));
  return generation;
}
