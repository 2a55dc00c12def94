/**
 * Buffers of one size handed out again and again. A Buffer's memory is only given back once the
 * garbage collector reaches its object, and V8 lets tens of MB of such memory pile up first: a hub
 * answering 1 MiB filedata chunks (a 1 MiB read and a 1.4 MB answer each, 180 a second) peaked
 * 50-75 MB above what it used. Reused buffers never become garbage. The spares are dropped after
 * a while without use, so an idle hub holds none.
 */
export class BufferPool {
  private spare: Buffer[] = [];
  private lastUse = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Size of every pooled buffer; larger requests get a buffer of their own. */
    readonly size: number,
    /** Most spares kept. */
    private readonly keep: number,
    private readonly idleMs = 10_000,
  ) {}

  /** A buffer of at least `length` bytes, contents undefined. Give it back with give() once nothing refers to it. */
  take(length: number): Buffer {
    this.lastUse = Date.now();
    if (length > this.size) return Buffer.allocUnsafeSlow(length);
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  give(buffer: Buffer): void {
    if (buffer.length !== this.size || this.spare.length >= this.keep || this.spare.includes(buffer)) return;
    this.spare.push(buffer);
    this.lastUse = Date.now();
    this.timer ??= setTimeout(() => this.dropIdle(), this.idleMs).unref();
  }

  /** How many spares are held (for tests). */
  get spares(): number {
    return this.spare.length;
  }

  private dropIdle(): void {
    this.timer = undefined;
    const idle = Date.now() - this.lastUse;
    if (idle >= this.idleMs) this.spare = [];
    else if (this.spare.length) this.timer = setTimeout(() => this.dropIdle(), this.idleMs - idle).unref();
  }
}
