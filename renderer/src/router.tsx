import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A small history-API router: the hub serves index.html for every client route. */

const CHANGE = 'hearth:navigate';

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
  window.scrollTo(0, 0);
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [loc, setLoc] = useState(() => ({ path: location.pathname, search: location.search }));
  useEffect(() => {
    const update = () => setLoc({ path: location.pathname, search: location.search });
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return { path: loc.path, query: new URLSearchParams(loc.search) };
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

/** Matches a path against a pattern like /groups/:id; returns the decoded parameters. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const re = new RegExp(
    '^' +
      pattern.replace(/\/:(\w+)/g, (_, name: string) => {
        names.push(name);
        return '/([^/]+)';
      }) +
      '/?$',
  );
  const m = re.exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}
