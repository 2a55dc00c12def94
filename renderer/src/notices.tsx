import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

/** Short messages about actions that finished or failed away from any form (likes, deletes). */
interface Notice {
  id: number;
  text: string;
  kind: 'error' | 'info';
}

const NoticeContext = createContext<(text: string, kind?: Notice['kind']) => void>(() => {});

export const useNotify = () => useContext(NoticeContext);

let nextId = 1;

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = (id: number) => setNotices((all) => all.filter((n) => n.id !== id));
  const notify = useCallback((text: string, kind: Notice['kind'] = 'error') => {
    const id = nextId++;
    setNotices((all) => [...all.slice(-3), { id, text, kind }]);
    if (kind === 'info') setTimeout(() => dismiss(id), 5000);
  }, []);
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
            <span>{n.text}</span>
            <button type="button" className="link-button" onClick={() => dismiss(n.id)} aria-label="Dismiss message">
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
