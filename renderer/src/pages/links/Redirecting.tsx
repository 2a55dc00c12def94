import { useEffect, type ReactNode } from 'react';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { navigate } from '../../router.tsx';

/**
 * A page for a URL the hub hands out to other apps: finds where that thing lives in the UI and
 * goes there (replacing the history entry), or says what is missing.
 */
export function Redirecting({ find, what, missing }: { find: () => Promise<string | undefined>; what: string; missing: ReactNode }) {
  const target = useLoad(find, []);
  useEffect(() => {
    if (target.status === 'ready' && target.data) navigate(target.data, { replace: true });
  }, [target.status, target.data]);
  if (target.status === 'error') return <ErrorNote error={`The ${what} could not be opened: ${target.error}`} onRetry={target.reload} />;
  if (target.status === 'ready' && !target.data) return <div className="page">{missing}</div>;
  return <Loading label={`Opening the ${what}…`} />;
}

export function Gone({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Empty heading title={title}>
      {children}
    </Empty>
  );
}
