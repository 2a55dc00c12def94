import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backupsToKeep } from '../../server/backup/retention.js';
import { parseEvery, targetProblem } from '../../server/backup/settings.js';
import { newBackupId } from '../../server/backup/manifest.js';
import { parseS3Url } from '../../server/backup/targets/s3-address.js';
import { backupNotice } from '../../electron/lib/backup-notice.js';

const at = (iso: string) => ({ id: iso, created: new Date(iso) });

test('retention keeps the newest backup of each of the last 7 days and of the last 4 weeks', () => {
  // One backup every 12 hours for 60 days, newest last.
  const backups = Array.from({ length: 120 }, (_, i) => at(new Date(Date.UTC(2025, 0, 1, 6) + i * 12 * 3600_000).toISOString()));
  const keep = backupsToKeep(backups, { daily: 7, weekly: 4 });
  const newest = backups[backups.length - 1]!;
  assert.ok(keep.has(newest.id));
  const days = new Set([...keep].map((id) => id.slice(0, 10)));
  assert.ok(keep.size >= 7 && keep.size <= 11, `7 daily and 4 weekly, some shared: ${keep.size}`);
  assert.equal(days.size, keep.size, 'one backup a day at most');
  const oldest = [...keep].sort()[0]!;
  const span = (newest.created.getTime() - new Date(oldest).getTime()) / 86400_000;
  assert.ok(span > 14 && span < 28, `the oldest kept is the last of the week three weeks before this one: ${span} days`);
  for (const id of keep) {
    const sameDay = backups.filter((b) => b.id.slice(0, 10) === id.slice(0, 10));
    assert.equal(id, sameDay[sameDay.length - 1]!.id, 'the newest of its day');
  }
  assert.deepEqual([...backupsToKeep([newest], { daily: 0, weekly: 0 })], [newest.id], 'the newest backup is always kept');
});

test('periods, targets and backup ids', () => {
  assert.equal(parseEvery('daily'), 86400);
  assert.equal(parseEvery('6h'), 21600);
  assert.equal(parseEvery('30m'), 1800);
  assert.equal(parseEvery('1w'), 7 * 86400);
  assert.equal(parseEvery('off'), 0);
  for (const bad of ['', 'soon', '-1h', '0h', '1y', '1.5h', '9999999d']) assert.equal(parseEvery(bad), undefined, bad);
  assert.deepEqual(parseS3Url('s3://my-bucket/some/prefix/'), { bucket: 'my-bucket', prefix: 'some/prefix/' });
  assert.deepEqual(parseS3Url('s3://my-bucket'), { bucket: 'my-bucket', prefix: '' });
  assert.equal(parseS3Url('s3://'), undefined);
  assert.equal(targetProblem('/media/disk/hearth', '/home/me/.local/share/hearth'), undefined);
  assert.match(targetProblem('/home/me/.local/share/hearth/backups', '/home/me/.local/share/hearth')!, /inside the hub's own data folder/);
  assert.match(targetProblem('backups', '/data')!, /full path/);
  const id = newBackupId(new Date('2025-03-04T05:06:07.890Z'), new Set());
  assert.equal(id, '20250304-050607');
  assert.equal(newBackupId(new Date('2025-03-04T05:06:07.890Z'), new Set([id])), `${id}-2`);
});

test('the desktop app tells of a failed backup, and of nothing else', () => {
  assert.equal(backupNotice({ ok: true, at: '2025-01-01T00:00:00Z', target: '/x', id: '20250101-000000' }), undefined);
  const notice = backupNotice({ ok: false, at: '2025-01-01T00:00:00Z', target: '/x', error: 'cannot write to the folder /x: the disk is full' });
  assert.equal(notice?.title, 'Hearth could not back up');
  assert.match(notice!.body, /the disk is full\. Your earlier backups are as they were\./);
});
