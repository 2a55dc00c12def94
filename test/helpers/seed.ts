import type { Hub } from '../../server/hub.js';
import { createItem } from '../../server/services/items.js';
import { connect } from '../../server/services/connections.js';
import { insertAccount } from '../../server/store/accounts.js';
import { generateChannelKeys, insertChannel } from '../../server/store/channels.js';
import type { ChannelRow, ItemRow } from '../../server/store/rows.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { toAclString } from '../../server/util/ids.js';
import type { TestHub } from './hub.js';

export interface Seeded {
  alice: ChannelRow;
  bob: ChannelRow;
  /** A channel of a second account (Hearth creates one account per install; the store allows more). */
  eve: ChannelRow;
  publicPost: ItemRow;
  /** Alice's post for bob only. */
  forBob: ItemRow;
  /** Alice's post for herself only. */
  onlyMe: ItemRow;
}

export const EVE_PASSWORD = 'eve secret';

/** Creates a channel on a separate account with its own password. */
export async function addForeignAccount(hub: Hub, nick: string, password: string): Promise<ChannelRow> {
  const accountId = insertAccount(hub.db, `${nick}@elsewhere.example`, await hashPassword(password));
  return insertChannel(hub.db, { accountId, nick, name: nick, baseUrl: hub.baseUrl, keys: await generateChannelKeys() });
}

/** alice and bob (one account, connected to each other) and eve (another account), with a few posts. */
export async function seed(t: TestHub): Promise<Seeded> {
  const hub = t.hub;
  const alice = t.channels.alice ?? (await t.addChannel('alice'));
  const bob = t.channels.bob ?? (await t.addChannel('bob'));
  const eve = await addForeignAccount(hub, 'eve', EVE_PASSWORD);
  connect(hub, alice, bob.channel_hash);
  connect(hub, bob, alice.channel_hash);
  const publicPost = createItem(hub, alice, { body: 'hello world #public', title: 'Public' });
  const forBob = createItem(hub, alice, { body: 'secret for bob', title: 'For Bob', acl: { allow_cid: toAclString([bob.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
  const onlyMe = createItem(hub, alice, { body: 'secret for me', title: 'Only me', acl: { allow_cid: toAclString([alice.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
  createItem(hub, bob, { body: 'bob says hi' });
  createItem(hub, alice, { body: 'a reply', parentId: publicPost.id });
  return { alice, bob, eve, publicPost, forBob, onlyMe };
}
