import { useState, type FormEvent } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { navigate } from '../../router.tsx';

/** A search box: opens /search?q=… (the one in the top bar and the one on the search page). */
export function SearchForm({ initial = '', className = '', label = 'Search' }: { initial?: string; className?: string; label?: string }) {
  const [q, setQ] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = q.trim();
    // Nothing typed (or no room for the box, on a phone): the search page, with its own box.
    navigate(text ? `/search?q=${encodeURIComponent(text)}` : '/search');
  };
  return (
    <form role="search" aria-label={label} className={`search-form ${className}`} onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`search-${className || 'top'}`}>
        Search posts
      </label>
      <input id={`search-${className || 'top'}`} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search or user@server" maxLength={500} />
      <button type="submit" className="button button-quiet" aria-label="Search">
        <Icon name="search" size={16} />
      </button>
    </form>
  );
}
