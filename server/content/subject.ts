/**
 * The subject a direct message gets when none is given: its first ten characters. Shared with the
 * renderer (which bundles this file), so that the UI can tell such a subject from a chosen one.
 */
export function defaultSubject(text: string): string {
  const chars = [...text.trim()];
  return chars.length > 10 ? `${chars.slice(0, 10).join('')}...` : chars.join('');
}
