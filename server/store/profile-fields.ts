import { stmt, type Db } from '../db/open.js';

export interface ProfileFields {
  fullname?: string;
  pdesc?: string;
  homepage?: string;
}

/** Updates fields of the channel's default profile. */
export function updateDefaultProfile(db: Db, uid: number, fields: ProfileFields): void {
  const keys = (Object.keys(fields) as (keyof ProfileFields)[]).filter((k) => fields[k] !== undefined);
  if (!keys.length) return;
  stmt(db, `UPDATE profile SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE uid = @uid AND is_default = 1`).run({ ...fields, uid });
}

/** The channel's free-form location (shown as the Twitter user's location). */
export function setChannelLocation(db: Db, uid: number, location: string): void {
  stmt(db, 'UPDATE channel SET channel_location = ? WHERE channel_id = ?').run(location, uid);
}
