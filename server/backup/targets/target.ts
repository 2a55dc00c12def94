import type { Readable } from 'node:stream';

/**
 * Where backups go: a folder or an S3-compatible bucket. Objects are named by slash-separated
 * paths relative to the target's root ('files/ab/<key>', 'backups/<id>/manifest.json'). Every write
 * is whole or absent: a backup interrupted at any point leaves no half-written object under its
 * final name.
 */
export interface BackupTarget {
  /** The target as the owner named it, for messages (never with a secret). */
  readonly description: string;
  /** Whether backups there leave this machine (and so must be encrypted). */
  readonly leavesMachine: boolean;
  /** Makes the target ready for writing and removes leftovers of interrupted writes. */
  prepare(): Promise<void>;
  /** The names of the objects under a prefix ('files/', 'backups/'). */
  list(prefix: string): Promise<string[]>;
  /** An object's bytes; MissingObjectError when there is none. */
  read(name: string): Promise<Readable>;
  /** Stores an object under its name, replacing nothing half-way. */
  write(name: string, body: Readable, size?: number): Promise<void>;
  remove(names: string[]): Promise<void>;
  close(): void;
}
