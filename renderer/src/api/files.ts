import { NATIVE, get, post, upload, type UploadHandle } from './http.ts';

/** A file record of the native API's files listing (integers as digit strings). */
export interface FileEntry {
  hash: string;
  filename: string;
  filetype: string;
  filesize: string;
  folder: string;
  is_dir: string;
  is_photo: string;
  created: string;
  edited: string;
}

/** The entries of a folder are read this many at a time. */
export const FILES_PAGE = 100;

/** The folder type of the listing: every folder of the channel, which the addresses and paths are made of. */
const FOLDER_TYPE = 'multipart/mixed';

export async function listFolders(): Promise<FileEntry[]> {
  const res = await get<{ success: boolean; results?: FileEntry[] }>(`${NATIVE}files`, { filetype: FOLDER_TYPE });
  return (res.results ?? []).filter((f) => f.is_dir === '1');
}

/** A page of the files and folders directly in one folder ('' is the top level): folders first, then by name. */
export async function listFolder(folder: string, start: number, records = FILES_PAGE): Promise<FileEntry[]> {
  const res = await get<{ success: boolean; results?: FileEntry[] }>(`${NATIVE}files`, { folder, order: 'name', start, records });
  return res.results ?? [];
}

/** Everything under a folder, however deep (`folders`: every folder of the channel); asked before deleting it. */
export async function listUnder(folders: FileEntry[], hash: string): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for (const queue = [hash]; queue.length; ) {
    const folder = queue.shift()!;
    for (let start = 0; ; start += FILES_PAGE) {
      const page = await listFolder(folder, start);
      out.push(...page);
      if (page.length < FILES_PAGE) break;
    }
    queue.push(...folders.filter((f) => f.folder === folder).map((f) => f.hash));
  }
  return out;
}

export function uploadFile(file: File, folder: string, onProgress: (fraction: number) => void): UploadHandle<{ attach: FileEntry }> {
  const form = new FormData();
  form.append('folder', folder);
  form.append('file', file, file.name);
  return upload(`${NATIVE}file/upload`, form, onProgress);
}

export function createFolder(name: string, parent: string): Promise<{ attach: FileEntry }> {
  return post(`${NATIVE}file/folder`, { name, folder: parent });
}

export function deleteFile(hash: string): Promise<{ deleted: number }> {
  return post(`${NATIVE}file/delete`, { file_id: hash });
}

/** Bytes per filedata request: the API carries chunks base64 in JSON. */
const CHUNK = 1024 * 1024;

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Reads a whole file through filedata, chunk by chunk, as any API client would. */
export async function readFile(entry: FileEntry, onProgress?: (fraction: number) => void): Promise<Blob> {
  const size = Number(entry.filesize) || 0;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0; start < size || (start === 0 && size === 0); start += CHUNK) {
    const res = await get<{ attach: { content: string; length: number } }>(`${NATIVE}filedata`, { file_id: entry.hash, start, length: CHUNK });
    const bytes = fromBase64(res.attach.content ?? '');
    parts.push(bytes);
    onProgress?.(size ? Math.min(1, (start + bytes.length) / size) : 1);
    if (!bytes.length) break;
  }
  return new Blob(parts, { type: entry.filetype || 'application/octet-stream' });
}

/** Hands a blob to the browser as a download named `filename`. */
export function saveAs(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
