import { useSession } from './session.tsx';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/**
 * Why these files cannot go to the hub in one upload, before any byte is sent: the hub takes at
 * most `limit` bytes per request (its answer would come only after the whole upload).
 */
export function uploadProblem(files: File[], limit: number | undefined): string | undefined {
  if (!limit) return undefined;
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total <= limit) return undefined;
  const most = `the hub takes at most ${formatSize(limit)} at a time`;
  const big = files.find((f) => f.size > limit);
  if (big) return `${big.name} is ${formatSize(big.size)}; ${most}.`;
  return `Together these files are ${formatSize(total)}; ${most}. Send some of them in another post.`;
}

/** The hub's upload limit, from the session. */
export function useUploadLimit(): number | undefined {
  return useSession().session.uploadLimit;
}
