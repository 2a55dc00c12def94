import { setFederation } from '../../server/federation/settings.js';
import { startHub, type TestHub } from './hub.js';
import type { HubOptions } from '../../server/hub.js';

/** HEARTH_FEDERATION_INSECURE=1 for the tests' hubs: http and 127.0.0.1 addresses. Read at each use. */
export function allowInsecureFederation(): void {
  process.env.HEARTH_FEDERATION_INSECURE = '1';
}

/** A hub on 127.0.0.1 with federation on at its own (http) address, with these channels. */
export async function startFederatingHub(channels: string[], opts: { options?: Partial<HubOptions>; dataDir?: string } = {}): Promise<TestHub> {
  allowInsecureFederation();
  const t = await startHub({ channels, ...opts });
  const result = setFederation(t.hub.db, true, t.url);
  if (result.problem) throw new Error(result.problem);
  await t.hub.federation.restart();
  if (!t.hub.federation.state().running) throw new Error(`federation did not start: ${t.hub.federation.state().problem}`);
  return t;
}
