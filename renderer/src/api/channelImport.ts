import { get, post } from './http.ts';

/** "Move a channel here": the hub's /channel-import endpoints (shapes of server/services/channel-import). */

export interface Counter {
  done: number;
  total: number;
}

export interface ImportProgress {
  phase: 'connecting' | 'profile' | 'connections' | 'files' | 'items' | 'done';
  items: Counter;
  files: Counter;
  bytes: Counter;
  message: string;
}

export interface ImportSummary {
  state: 'done' | 'interrupted' | 'failed';
  source: { url: string; nick: string; address: string };
  channel?: { id: number; nick: string; name: string; address: string };
  renamedFrom?: string;
  imported: { connections: number; groups: number; members: number; items: number; files: number; photos: number; bytes: number; profilePhoto: boolean };
  skipped: { reason: string; count: number; examples: string[] }[];
  notes: string[];
  error?: string;
}

export interface ImportStatus {
  running: boolean;
  from?: string;
  user?: string;
  progress?: ImportProgress;
  summary?: ImportSummary;
}

export const importStatus = () => get<ImportStatus>('/channel-import');

export const startImport = (from: string, user: string, password: string) => post<ImportStatus>('/channel-import', { from, user, password });

export const stopImport = () => post<ImportStatus>('/channel-import/stop');
