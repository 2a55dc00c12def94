import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { seedConnections } from '../helpers/many-connections.js';

// A client that stops reading a long, streamed answer and goes away (an app closed, a phone out of
// reach) is no error of the hub's: nothing is reported, and the hub answers the next client.
let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  // Far more than the socket's buffers hold: the hub is still writing when the client goes.
  seedConnections(t.hub, t.channels.alice!, 6000);
});
after(() => t.stop());

/** Asks for the whole connection list, takes its first bytes and drops the connection. */
function readABitAndLeave(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}/api/z/1.0/abook`, { headers: { authorization: basic('alice') } }, (res) => {
      res.once('data', (chunk: Buffer) => {
        req.destroy();
        resolve(chunk.length);
      });
    });
    req.once('error', (err) => (req.destroyed ? undefined : reject(err)));
    req.end();
  });
}

test('clients leaving in the middle of a streamed answer leave nothing in the error output', async () => {
  const reported: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    reported.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    for (let i = 0; i < 5; i++) assert.ok((await readABitAndLeave()) > 0);
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(reported.filter((line) => /error|premature/i.test(line)), []);
  const whole = await fetch(`${t.url}/api/z/1.0/abook`, { headers: { authorization: basic('alice') } });
  assert.equal(whole.status, 200);
  assert.equal(((await whole.json()) as unknown[]).length, 6001);
});
