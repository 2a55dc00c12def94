import { useEffect, useState, type FormEvent } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { navigate, useLocation } from '../../router.tsx';

/**
 * The search box: opens /search?q=… and, on that page, holds what was searched. The top bar has
 * it; on a phone, where the top bar has room for its button only, the search page shows it instead
 * (styles: .search-form-top, .search-form-page), so that there is one box at every width.
 */
export function SearchForm({ className = '', label = 'Search' }: { className?: string; label?: string }) {
  const { path, query } = useLocation();
  const searched = path === '/search' ? (query.get('q') ?? '') : '';
  const [q, setQ] = useState(searched);
  useEffect(() => setQ(searched), [searched]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = q.trim();
    // Nothing typed (or no room for the box, on a phone): the search page, with the box.
    navigate(text ? `/search?q=${encodeURIComponent(text)}` : '/search');
  };
  return (
    <form role="search" aria-label={label} className={`search-form ${className}${path === '/search' ? ' search-form-here' : ''}`} onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`search-${className || 'top'}`}>
        Search posts and people
      </label>
      <input id={`search-${className || 'top'}`} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search or user@server" maxLength={500} />
      <button type="submit" className="button button-quiet" aria-label="Search">
        <Icon name="search" size={16} />
      </button>
    </form>
  );
}
