/**
 * An FTS5 query matching every word of a user's search text, each as a prefix ("repl" finds
 * "reply"), in what readers see: the title and the plain text of the body, not its markup (the
 * raw body column, kept for finding photos by the ids in their URLs). Words are quoted, so FTS
 * operators, column filters and parentheses in the text are plain text. Undefined when the text
 * has no searchable word.
 */
export function ftsQuery(text: string): string | undefined {
  const words = text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
  if (!words.length) return undefined;
  return `{title html_text} : (${words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ')})`;
}
