/** Text edits for the BBCode toolbar: wrap the selection in a tag pair, keeping it selected. */
export interface TextEdit {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

export function wrapSelection(value: string, start: number, end: number, open: string, close: string, placeholder = ''): TextEdit {
  const selected = value.slice(start, end) || placeholder;
  const next = value.slice(0, start) + open + selected + close + value.slice(end);
  return { value: next, selectionStart: start + open.length, selectionEnd: start + open.length + selected.length };
}

/** [list] with one [*] per selected line. */
export function listFromSelection(value: string, start: number, end: number): TextEdit {
  const lines = (value.slice(start, end) || 'item').split(/\r?\n/).filter((l) => l.trim());
  const block = `[list]\n${lines.map((l) => `[*]${l}`).join('\n')}\n[/list]`;
  const next = value.slice(0, start) + block + value.slice(end);
  return { value: next, selectionStart: start, selectionEnd: start + block.length };
}

export function linkFromSelection(value: string, start: number, end: number): TextEdit {
  const selected = value.slice(start, end);
  if (/^https?:\/\/\S+$/.test(selected)) return wrapSelection(value, start, end, '[url]', '[/url]');
  const open = '[url=https://]';
  const text = selected || 'link text';
  const next = value.slice(0, start) + open + text + '[/url]' + value.slice(end);
  // Leave the cursor where the address goes.
  const at = start + open.length - 1;
  return { value: next, selectionStart: at, selectionEnd: at };
}
