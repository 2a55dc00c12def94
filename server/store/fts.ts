/**
 * An FTS5 query matching every word of a user's search text, each as a prefix ("repl" finds
 * "reply"). Words are quoted, so FTS operators, column filters and parentheses in the text are
 * plain text. Undefined when the text has no searchable word.
 */
export function ftsQuery(text: string): string | undefined {
  const words = text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
  if (!words.length) return undefined;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
