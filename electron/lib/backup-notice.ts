import type { LastBackup } from '../../server/backup/service.js';

/** The desktop notification for a backup's outcome: only a failure is worth interrupting the owner. */
export function backupNotice(outcome: LastBackup): { title: string; body: string } | undefined {
  if (outcome.ok) return undefined;
  const body = `${outcome.error ?? 'It failed'}. Your earlier backups are as they were.`;
  return { title: 'Hearth could not back up', body: body.length > 200 ? `${body.slice(0, 199)}…` : body };
}
