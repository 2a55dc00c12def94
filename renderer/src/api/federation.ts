import { get, postJson } from './http.ts';

/** The hub's federation as Settings → Federation sees it (the owner's /settings/federation/state). */
export interface FederationState {
  /** The owner turned federation on. */
  on: boolean;
  /** It runs: on, at an address other servers can use. */
  running: boolean;
  /** The public address, fixed once federation was first on. */
  url: string | null;
  /** Why it does not run although on. */
  problem: string | null;
  /** HEARTH_FEDERATION_INSECURE=1: http and private addresses are allowed (tests, LAN experiments). */
  insecure: boolean;
}

const PATH = '/settings/federation/state';

export function federationState(): Promise<FederationState> {
  return get<FederationState>(PATH);
}

/** Turns federation on (at `url` the first time; the address stays fixed after) or off, at once. */
export function switchFederation(on: boolean, url?: string): Promise<FederationState> {
  return postJson<FederationState>(PATH, url ? { on, url } : { on });
}
