import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHub, type Hub, type HubOptions } from '../../server/hub.js';
import { createChannel } from '../../server/services/channels.js';
import type { ChannelRow } from '../../server/store/rows.js';

export const PASSWORD = 'correct horse';

export interface TestHub {
  hub: Hub;
  url: string;
  dataDir: string;
  /** Channels created by the helper, by nickname. */
  channels: Record<string, ChannelRow>;
  /** fetch() against the hub; `as` adds Basic credentials of that channel (password PASSWORD). */
  request(path: string, init?: RequestInit & { as?: string; password?: string }): Promise<Response>;
  /** Creates another channel on the same account. */
  addChannel(nick: string, name?: string): Promise<ChannelRow>;
  stop(): Promise<void>;
}

export function basic(login: string, password = PASSWORD): string {
  return 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
}

/**
 * Starts a real hub on an ephemeral loopback port with a temporary data directory, with the given
 * channels already created (the first one creates the owner account).
 */
export async function startHub(opts: { channels?: string[]; options?: Partial<HubOptions>; dataDir?: string } = {}): Promise<TestHub> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'hearth-test-')));
  const hub = await createHub({ dataDir, host: '127.0.0.1', port: 0, ...opts.options });
  const url = await hub.listen();
  const channels: Record<string, ChannelRow> = {};
  const addChannel = async (nick: string, name?: string) => {
    const ch = await createChannel(hub.db, { baseUrl: hub.baseUrl }, { nick, name: name ?? nick[0]!.toUpperCase() + nick.slice(1), password: PASSWORD, email: Object.keys(channels).length ? undefined : `${nick}@example.com` });
    channels[nick] = ch;
    return ch;
  };
  for (const nick of opts.channels ?? []) await addChannel(nick);
  return {
    hub,
    url,
    dataDir,
    channels,
    addChannel,
    request(path, init = {}) {
      const { as, password, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (as) headers.set('authorization', basic(as, password));
      return fetch(url + path, { ...rest, headers });
    },
    async stop() {
      await hub.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
