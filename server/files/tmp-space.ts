/**
 * The room the hub's temporary folder (`tmp/` in the data directory) has for work in progress:
 * uploads being received and files an import is fetching share it, each reserving its bytes
 * before it writes them and giving them back when it is done.
 */
export class TmpSpace {
  private used = 0;

  constructor(readonly capacity: number) {}

  /** Reserves `bytes`; false (and nothing reserved) when they do not fit next to what is reserved already. */
  reserve(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}
