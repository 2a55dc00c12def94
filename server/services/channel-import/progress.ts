/** What an import reports while it runs and when it ends (the CLI's progress bar, the UI's). */

export type ImportPhase = 'connecting' | 'profile' | 'connections' | 'files' | 'items' | 'done';

export interface Counter {
  done: number;
  total: number;
}

export interface ImportProgress {
  phase: ImportPhase;
  items: Counter;
  files: Counter;
  bytes: Counter;
  /** What is being done right now, in words. */
  message: string;
}

/** Things left out, grouped by why. */
export interface SkippedGroup {
  reason: string;
  count: number;
  /** A few of them (message ids, file names), to look at. */
  examples: string[];
}

export interface ImportSummary {
  state: 'done' | 'interrupted' | 'failed';
  source: { url: string; nick: string; address: string };
  channel?: { id: number; nick: string; name: string; address: string };
  /** The source's nickname was taken here: the channel got this one instead. */
  renamedFrom?: string;
  imported: { connections: number; groups: number; members: number; items: number; files: number; photos: number; bytes: number; profilePhoto: boolean };
  skipped: SkippedGroup[];
  /** Things the person should know (keys are not moved, renames, how to resume). */
  notes: string[];
  error?: string;
}

/** The summary of an import that has not brought anything (yet). */
export function failedSummary(url: string, nick: string, error?: string): ImportSummary {
  return {
    state: 'failed',
    source: { url, nick, address: '' },
    imported: { connections: 0, groups: 0, members: 0, items: 0, files: 0, photos: 0, bytes: 0, profilePhoto: false },
    skipped: [],
    notes: [KEYS_NOT_MOVED],
    ...(error ? { error } : {}),
  };
}

export const KEYS_NOT_MOVED =
  'Keys are not moved: the source never hands out its private key, so the channel here has a new identity (a new key and address). Your connections see it as a new channel.';

const MAX_EXAMPLES = 5;

/** Collects skipped things by reason. */
export class SkipList {
  private readonly groups = new Map<string, SkippedGroup>();

  add(reason: string, example: string): void {
    let g = this.groups.get(reason);
    if (!g) this.groups.set(reason, (g = { reason, count: 0, examples: [] }));
    g.count++;
    if (g.examples.length < MAX_EXAMPLES) g.examples.push(example);
  }

  list(): SkippedGroup[] {
    return [...this.groups.values()];
  }
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function megabytes(n: number): string {
  return `${(n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0)} MB`;
}

/** The summary as lines of text (the CLI prints them; the UI shows the same facts). */
export function summaryLines(s: ImportSummary): string[] {
  const lines: string[] = [];
  const where = s.channel ? `${s.channel.nick} (${s.channel.address})` : 'no channel';
  if (s.state === 'done') lines.push(`Imported ${s.source.nick} from ${s.source.url} as ${where}.`);
  else if (s.state === 'interrupted') lines.push(`Interrupted while importing ${s.source.nick} from ${s.source.url} into ${where}.`);
  else lines.push(`The import of ${s.source.nick || 'the channel'} from ${s.source.url} failed${s.error ? `: ${s.error}` : '.'}`);
  const i = s.imported;
  lines.push(
    `Imported: ${i.items} posts, comments and likes; ${count(i.files, 'file')} and ${count(i.photos, 'photo')} (${megabytes(i.bytes)}); ` +
      `${count(i.connections, 'connection')}; ${count(i.groups, 'privacy group')} with ${count(i.members, 'member')}${i.profilePhoto ? '; the profile photo' : ''}.`,
  );
  if (s.skipped.length) {
    lines.push('Skipped:');
    for (const g of s.skipped) lines.push(`  ${g.count} × ${g.reason}${g.examples.length ? ` (e.g. ${g.examples.slice(0, 3).join(', ')})` : ''}`);
  } else lines.push('Skipped: nothing.');
  for (const n of s.notes) lines.push(n);
  return lines;
}
