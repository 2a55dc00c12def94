import { useState } from 'react';

/** A round profile photo, or the person's initial when there is none (or it fails to load). */
export function Avatar({ src, name, size = 40 }: { src?: string; name: string; size?: number }) {
  const [failedSrc, setFailedSrc] = useState<string>();
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (src && failedSrc !== src) return <img className="avatar" src={src} alt="" style={style} onError={() => setFailedSrc(src)} />;
  return (
    <span className="avatar avatar-initial" style={style} aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
