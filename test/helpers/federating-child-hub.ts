/**
 * Run as a child process (node --import tsx federating-child-hub.ts '<json>'): a hub on a fixed
 * 127.0.0.1 port that federates at that address, with the given channels (made on the first run,
 * password PASSWORD) and the given hub options. Prints "listening <url>" once it listens.
 */
import { createHub } from '../../server/hub.js';
import { createChannel } from '../../server/services/channels.js';
import { getChannelByNick } from '../../server/store/channels.js';
import { setFederation } from '../../server/federation/settings.js';
import { PASSWORD } from './hub.js';
import type { ChildHubConfig } from './child-hub.js';

const config = JSON.parse(process.argv[2]!) as ChildHubConfig;
process.env.HEARTH_FEDERATION_INSECURE = '1';
const hub = await createHub({ ...config.options, dataDir: config.dataDir, host: '127.0.0.1', port: config.port });
for (const [k, nick] of config.channels.entries()) {
  if (!getChannelByNick(hub.db, nick)) await createChannel(hub.db, { baseUrl: hub.baseUrl }, { nick, name: nick, password: PASSWORD, email: k === 0 ? `${nick}@example.com` : undefined });
}
const set = setFederation(hub.db, true, `http://127.0.0.1:${config.port}`);
if (set.problem) throw new Error(set.problem);
const url = await hub.listen();
if (!hub.federation.state().running) throw new Error(`federation does not run: ${hub.federation.state().problem}`);
process.stdout.write(`listening ${url}\n`);
process.on('SIGTERM', () => void hub.close().then(() => process.exit(0)));
// The parent holds the other end of stdin: when it is gone, so is this hub.
process.stdin.on('end', () => process.exit(1)).resume();
