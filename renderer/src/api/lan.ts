import { get, postJson } from './http.ts';

/** Settings → Network access as the hub says it (the owner's /settings/lan/state). */
export interface LanState {
  /** Other devices on the network can reach the hub. */
  on: boolean;
  /** The hub's address now (after a switch: the address it is moving to). */
  url: string;
  /** Where other devices reach the hub while on; null without a network connection. */
  lanUrl: string | null;
  /** The hub may move itself; else `restart` says how whoever runs it does it. */
  switchable: boolean;
  /** Why LAN access is off although wanted. */
  problem: string | null;
  restart: { why: string; on: string; off: string } | null;
  /** The answer to a switch: the hub moves once it is sent, dropping every connection. */
  moving?: boolean;
}

const PATH = '/settings/lan/state';

export function lanState(): Promise<LanState> {
  return get<LanState>(PATH);
}

export function switchLan(on: boolean): Promise<LanState> {
  return postJson<LanState>(PATH, { on });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The state once the hub has moved and listens again, asked at this page's address; undefined
 * when it does not answer here any more (it left the address this page came from).
 */
export async function lanStateAfterMove(timeoutMs = 10_000): Promise<LanState | undefined> {
  const until = Date.now() + timeoutMs;
  await sleep(400);
  while (Date.now() < until) {
    try {
      return await lanState();
    } catch {
      await sleep(500);
    }
  }
  return undefined;
}
