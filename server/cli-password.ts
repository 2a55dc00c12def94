/** Asking for a password on the terminal (hearth channel import), without showing what is typed. */

/** The person pressed Ctrl-C (or Ctrl-D on an empty line) instead of typing the password. */
export class PromptCancelled extends Error {
  constructor() {
    super('no password typed');
  }
}

/** The part of a terminal's input the prompt needs (process.stdin on a terminal). */
export interface TerminalInput {
  isRaw?: boolean;
  setRawMode(raw: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/**
 * Writes `prompt` and reads one line from a terminal in raw mode, so that the terminal shows
 * nothing of what is typed (no echo, no stars). Backspace and Ctrl-U edit the line; Enter ends it;
 * Ctrl-C, or Ctrl-D on an empty line, rejects with PromptCancelled. The terminal is left as it was.
 */
export function promptHidden(prompt: string, input: TerminalInput, output: { write(s: string): unknown }): Promise<string> {
  return new Promise((resolve, reject) => {
    const wasRaw = Boolean(input.isRaw);
    let chars: string[] = [];
    const finish = (cancelled: boolean) => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (cancelled) reject(new PromptCancelled());
      else resolve(chars.join(''));
    };
    const onData = (chunk: string | Buffer) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return finish(false);
        if (ch === '\u0003') return finish(true);
        if (ch === '\u0004') return finish(chars.length === 0);
        if (ch === '\u007f' || ch === '\b') chars = chars.slice(0, -1);
        else if (ch === '\u0015') chars = [];
        else if (ch >= ' ') chars.push(ch);
      }
    };
    // Raw before the prompt shows: what is typed once it shows is never echoed.
    input.setEncoding('utf8');
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
    output.write(prompt);
  });
}
