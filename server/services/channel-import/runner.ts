import type { Hub } from '../../hub-context.js';
import { importChannel, type ImportRequest } from './importer.js';
import { failedSummary, type ImportProgress, type ImportSummary } from './progress.js';

export interface ImportStatus {
  running: boolean;
  /** Where from and whom, of the import running or last run. */
  from?: string;
  user?: string;
  progress?: ImportProgress;
  /** The last run's summary, once it ended. */
  summary?: ImportSummary;
}

/**
 * Runs one channel import at a time inside a hub (the UI's "Move a channel here") and keeps its
 * progress for whoever asks. Closing the hub interrupts it: running it again resumes.
 */
export class ImportRunner {
  private status: ImportStatus = { running: false };
  private controller?: AbortController;
  private task?: Promise<void>;

  constructor(private readonly hub: Hub) {
    hub.onClose(() => this.stop());
  }

  current(): ImportStatus {
    return structuredClone(this.status);
  }

  /** Starts an import; false when one is running already. */
  start(req: ImportRequest): boolean {
    if (this.status.running) return false;
    const controller = new AbortController();
    this.controller = controller;
    this.status = { running: true, from: req.from, user: req.user };
    this.task = importChannel(this.hub, req, { signal: controller.signal, onProgress: (p) => (this.status.progress = p) })
      .then(
        (summary) => {
          this.status = { ...this.status, running: false, summary };
        },
        (err: Error) => {
          this.hub.log.error('channel import stopped', err);
          this.status = { ...this.status, running: false, summary: failedSummary(req.from, req.user, `unexpected error: ${err.message}`) };
        },
      );
    return true;
  }

  /** Interrupts the running import and waits until it has stopped. */
  async stop(): Promise<void> {
    this.controller?.abort(new Error('interrupted'));
    await this.task;
  }
}

const runners = new WeakMap<Hub, ImportRunner>();

export function importRunner(hub: Hub): ImportRunner {
  let r = runners.get(hub);
  if (!r) runners.set(hub, (r = new ImportRunner(hub)));
  return r;
}
