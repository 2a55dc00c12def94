import { createContext, useContext, useMemo, type ReactNode } from 'react';

/** What to mark in the text shown: the words of a search. */
const HighlightContext = createContext<RegExp | undefined>(undefined);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The words of a search as the hub matches them (store/fts.ts): each run of letters and digits is
 * the start of a word, whatever its case ("repl" marks "Reply").
 */
export function wordMatcher(q: string): RegExp | undefined {
  const runs = [...new Set((q.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))].slice(0, 16);
  if (!runs.length) return undefined;
  runs.sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${runs.map(escape).join('|')})[\\p{L}\\p{N}]*`, 'giu');
}

/** A piece of a name anywhere in it, as people are found (users/search). */
export function substringMatcher(q: string): RegExp | undefined {
  const text = q.trim().replace(/^@/, '');
  return text ? new RegExp(escape(text), 'giu') : undefined;
}

/** The text with what `matcher` finds in <mark>s. */
export function highlight(text: string, matcher: RegExp | undefined): ReactNode {
  if (!matcher || !text) return text;
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(matcher)) {
    if (!m[0]) continue;
    out.push(text.slice(last, m.index));
    out.push(
      <mark key={m.index} className="search-hit">
        {m[0]}
      </mark>,
    );
    last = m.index! + m[0].length;
  }
  if (!out.length) return text;
  out.push(text.slice(last));
  return out;
}

/** Marks the words of `q` in the posts and comments shown inside it (SafeHtml, titles). */
export function HighlightWords({ q, children }: { q: string; children: ReactNode }) {
  const matcher = useMemo(() => wordMatcher(q), [q]);
  return <HighlightContext.Provider value={matcher}>{children}</HighlightContext.Provider>;
}

/** The matcher of the search being shown, if any. */
export function useHighlight(): RegExp | undefined {
  return useContext(HighlightContext);
}

/** A plain text (a title) with the search's words marked. */
export function Highlighted({ text }: { text: string }) {
  return <>{highlight(text, useHighlight())}</>;
}
