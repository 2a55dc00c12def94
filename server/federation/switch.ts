import type { Db } from '../db/open.js';
import { relocateLocalChannels } from '../store/channels.js';
import { setConfig } from '../store/config.js';
import type { FederationRuntime, FederationState } from './runtime.js';
import { setFederation } from './settings.js';

/** Federation cannot be turned on as asked (no address, not a public https one, another than the fixed one). */
export class FederationRefused extends Error {}

export interface SwitchDeps {
  db: Db;
  federation: FederationRuntime;
  /** The hub's base URL as it is now (the fixed public one while federation runs). */
  baseUrl: () => string;
}

/**
 * Turns federation on (at `url`, or at the address fixed before) or off in a running hub: it
 * starts or stops at once, and the channels' addresses follow the hub's base URL as they do when
 * the hub starts.
 */
export async function switchFederation(deps: SwitchDeps, on: boolean, url?: string): Promise<FederationState> {
  const result = setFederation(deps.db, on, url);
  if (result.problem) throw new FederationRefused(result.problem);
  await deps.federation.restart();
  const base = deps.baseUrl();
  relocateLocalChannels(deps.db, base);
  setConfig(deps.db, 'system', 'base_url', base);
  return deps.federation.state();
}
