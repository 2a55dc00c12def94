import { useState } from 'react';

/** A round profile photo, or the person's initial when there is none (or it fails to load). */
export function Avatar({ src, name, size = 40 }: { src?: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (src && !failed) return <img className="avatar" src={src} alt="" style={style} onError={() => setFailed(true)} />;
  return (
    <span className="avatar avatar-initial" style={style} aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
