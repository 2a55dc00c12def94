import { useEffect, useState } from 'react';

/** The phone layout's breakpoint, as styles/app.css has it. */
export const PHONE_WIDTH = '(max-width: 760px)';

/** Whether a CSS media query matches now; follows the window as it changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}
