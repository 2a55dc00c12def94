import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PromptCancelled, promptHidden } from '../../server/cli-password.js';

/** A terminal's input as the prompt sees it: raw mode switched and recorded, keys typed by the test. */
class FakeTerminal extends EventEmitter {
  isRaw = false;
  modes: boolean[] = [];
  paused = true;
  setRawMode(raw: boolean) {
    this.isRaw = raw;
    this.modes.push(raw);
  }
  setEncoding() {}
  resume() {
    this.paused = false;
  }
  pause() {
    this.paused = true;
  }
  type(keys: string) {
    this.emit('data', keys);
  }
}

function output() {
  let text = '';
  return { write: (s: string) => (text += s), get text() { return text; } };
}

test('the prompt reads a line in raw mode and shows nothing of it; backspace and Ctrl-U edit it', async () => {
  const input = new FakeTerminal();
  const out = output();
  const answer = promptHidden('Password: ', input, out);
  assert.equal(input.isRaw, true, 'raw (no echo) while asking');
  assert.equal(out.text, 'Password: ');
  input.type('wrong');
  input.type('\u0015');
  input.type('sécret');
  input.type('\u007fT');
  input.type('!\r');
  assert.equal(await answer, 'sécreT!');
  assert.equal(out.text, 'Password: \n', 'not a character of it was written');
  assert.deepEqual(input.modes, [true, false], 'the terminal is left as it was');
  assert.equal(input.paused, true);
  assert.equal(input.listenerCount('data'), 0);
});

test('Ctrl-C, or Ctrl-D on an empty line, cancels the prompt', async () => {
  for (const key of ['\u0003', '\u0004']) {
    const input = new FakeTerminal();
    const answer = promptHidden('Password: ', input, output());
    input.type(key === '\u0003' ? `abc${key}` : key);
    await assert.rejects(answer, PromptCancelled);
    assert.equal(input.isRaw, false);
  }
  const input = new FakeTerminal();
  const answer = promptHidden('Password: ', input, output());
  input.type('abc\u0004');
  assert.equal(await answer, 'abc', 'Ctrl-D after some text ends the line');
});
