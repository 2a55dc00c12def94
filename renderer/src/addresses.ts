import type { Session } from './api/types.ts';

/** What a nickname may be: the hub refuses anything else. */
export const NICK = /^[a-z][a-z0-9_-]{1,31}$/;

/**
 * The address of a channel of this hub by its nickname (nick@host[:port]), with the host part the
 * hub gives: the same address other hubs use. Channels of the session carry theirs already.
 */
export const addressHere = (session: Pick<Session, 'addressHost'>, nick: string) => `${nick}@${session.addressHost}`;

/** Whether an address (nick@host[:port]) is one of this hub's channels. */
export const isHere = (session: Pick<Session, 'addressHost'>, address: string) => address.toLowerCase().endsWith(`@${session.addressHost.toLowerCase()}`);
