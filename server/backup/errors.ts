/** A backup or restore that cannot go on, with a sentence for the owner (no secrets in it). */
export class BackupError extends Error {}

/** A backup that is damaged: what is wrong with it, item by item. */
export class DamagedBackupError extends BackupError {
  constructor(
    readonly backupId: string,
    readonly problems: string[],
  ) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    super(`backup ${backupId} is damaged; nothing was restored:\n  ${shown.join('\n  ')}${more}`);
  }
}

/** An object the target does not have. */
export class MissingObjectError extends BackupError {
  constructor(readonly objectName: string) {
    super(`${objectName} is missing`);
  }
}
