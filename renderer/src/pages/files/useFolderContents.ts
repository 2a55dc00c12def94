import { useRef } from 'react';
import { FILES_PAGE, listFolder, type FileEntry } from '../../api/files.ts';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';

/**
 * The files and folders directly in one folder, a page at a time: the first page, then more on
 * `loadMore`. A reload (after an upload or a deletion) reads again as many as were shown.
 * `folder` undefined: not known yet, nothing is read.
 */
export function useFolderContents(folder: string | undefined) {
  // How many entries the next reload asks for, and whether the last answer filled what was asked.
  const wanted = useRef(FILES_PAGE);
  const full = useRef(false);
  const contents = useLoad(async () => {
    if (folder === undefined) return undefined;
    const asked = wanted.current;
    const entries = await listFolder(folder, 0, asked);
    full.current = entries.length >= asked;
    return entries;
  }, [folder]);
  const more = useAction(async () => {
    const shown = contents.data ?? [];
    const page = await listFolder(folder ?? '', shown.length);
    const known = new Set(shown.map((f) => f.hash));
    const entries: FileEntry[] = [...shown, ...page.filter((f) => !known.has(f.hash))];
    full.current = page.length >= FILES_PAGE;
    wanted.current = Math.max(FILES_PAGE, entries.length);
    contents.setData(entries);
  });
  return { ...contents, hasMore: Boolean(contents.data) && full.current, loadMore: more.run, loadingMore: more.busy, moreError: more.error };
}
