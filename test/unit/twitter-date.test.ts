import assert from 'node:assert/strict';
import { test } from 'node:test';
import { twitterDate } from '../../server/util/time.js';

/** Twitter's form made the plain way, through a parsed Date. */
function throughDate(stored: string): string {
  const d = new Date(`${stored.replace(' ', 'T')}Z`);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  return `${day} ${month} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

test('twitterDate formats stored dates as a parsed Date would, odd ones included', () => {
  const odd = [
    '0001-01-01 00:00:00', '0099-05-05 10:10:10', '0100-05-05 10:10:10', '1900-03-01 00:00:00', '1969-12-31 23:59:59',
    '2020-02-29 23:59:59', '2021-02-29 00:00:00', '2020-02-30 00:00:00', '2020-13-01 00:00:00', '2020-00-10 00:00:00',
    '2020-01-01 24:00:00', '9999-12-31 23:59:59', 'not a date', '',
  ];
  assert.equal(twitterDate('2018-10-10 20:19:24'), 'Wed Oct 10 20:19:24 +0000 2018');
  for (const d of odd) assert.equal(twitterDate(d), throughDate(d), d);
  for (let i = 0; i < 20_000; i++) {
    const d = new Date(-2e12 + i * 2.2e8 + (i % 7) * 86_399_000).toISOString().slice(0, 19).replace('T', ' ');
    assert.equal(twitterDate(d), throughDate(d), d);
  }
});
