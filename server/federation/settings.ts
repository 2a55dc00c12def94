import type { Db } from '../db/open.js';
import { getConfig, setConfig } from '../store/config.js';
import { publicUrlProblem } from './public-address.js';

const ON = { cat: 'system', k: 'federation' } as const;
const PUBLIC_URL = { cat: 'system', k: 'federation_url' } as const;

/**
 * HEARTH_FEDERATION_INSECURE=1 lifts the https and public-address rules, for the hub's own address
 * and for the addresses it fetches from and delivers to: for tests and LAN experiments only.
 */
export function federationInsecure(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.HEARTH_FEDERATION_INSECURE === '1';
}

export function federationEnabled(db: Db): boolean {
  return getConfig(db, ON.cat, ON.k) === '1';
}

/** The hub's fixed public base URL while federation is on (actor ids are built from it and never change). */
export function federationUrl(db: Db): string | undefined {
  return getConfig(db, PUBLIC_URL.cat, PUBLIC_URL.k) || undefined;
}

/** Why federation cannot run at this base URL (one line for the owner), or undefined. */
export function federationUrlProblem(url: string | undefined, insecure = federationInsecure()): string | undefined {
  if (!url) return 'federation needs the public https address other servers reach this hub at, which a reverse proxy or a tunnel gives it';
  if (insecure) {
    try {
      const u = new URL(url);
      return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : `${url} is not an http(s) URL`;
    } catch {
      return `${url} is not a URL`;
    }
  }
  const problem = publicUrlProblem(url);
  return problem && `federation needs a public https address, and ${problem}: put the hub behind a reverse proxy or a tunnel with a public https name, and use that address`;
}

/**
 * Turns federation on at `url` (the hub's public base URL from then on) or off. Turning it on
 * again keeps the address fixed before: actor ids must not change under followers.
 */
export function setFederation(db: Db, on: boolean, url?: string): { url?: string; problem?: string } {
  if (!on) {
    setConfig(db, ON.cat, ON.k, '0');
    return { url: federationUrl(db) };
  }
  const fixed = federationUrl(db);
  const chosen = (fixed ?? url)?.replace(/\/+$/, '');
  const problem = federationUrlProblem(chosen);
  if (problem) return { problem };
  if (fixed && url && url.replace(/\/+$/, '') !== fixed) return { problem: `this hub federates as ${fixed} already; actor ids never change, so that address stays` };
  setConfig(db, PUBLIC_URL.cat, PUBLIC_URL.k, chosen!);
  setConfig(db, ON.cat, ON.k, '1');
  return { url: chosen };
}
