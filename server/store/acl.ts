/**
 * SQL for access lists (allow_cid, allow_gid, deny_cid, deny_gid hold '<hash><hash>' strings).
 * A row is visible to an observer when it is public (all four lists empty and not private), or the
 * observer owns it, or the observer is allowed by xchan or by membership in an allowed group of the
 * row's channel, and is not denied by either. instr() is used instead of LIKE because hashes may
 * contain LIKE wildcards. Bind the observer's xchan hash as @observer ('' for anonymous);
 * pass privateFlag for items, whose item_private flag also restricts. The observer's own channel is
 * looked up once per statement (an uncorrelated IN list), not once per row.
 */
export function visibleToSql(alias: string, opts: { ownerColumn?: string; privateFlag?: boolean } = {}): string {
  const a = alias ? `${alias}.` : '';
  const ownerColumn = opts.ownerColumn ?? 'uid';
  const inGroupList = (column: string) =>
    `EXISTS (SELECT 1 FROM pgrp_member vm JOIN pgrp vg ON vg.id = vm.gid WHERE vm.xchan = @observer AND vg.deleted = 0 AND vg.uid = ${a}${ownerColumn} AND instr(${a}${column}, '<' || vg.hash || '>') > 0)`;
  return `(
    (${a}allow_cid = '' AND ${a}allow_gid = '' AND ${a}deny_cid = '' AND ${a}deny_gid = ''${opts.privateFlag ? ` AND ${a}item_private = 0` : ''})
    OR ${a}${ownerColumn} IN (SELECT vc.channel_id FROM channel vc WHERE vc.channel_hash = @observer)
    OR (
      (instr(${a}allow_cid, '<' || @observer || '>') > 0 OR ${inGroupList('allow_gid')})
      AND instr(${a}deny_cid, '<' || @observer || '>') = 0
      AND NOT ${inGroupList('deny_gid')}
    )
  )`;
}
