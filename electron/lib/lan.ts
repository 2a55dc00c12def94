// LAN access is the hub's own switch now (Settings → Network access uses it too).
export { ALL_INTERFACES, applyLanAccess, lanAddress, LOOPBACK_HOST, type Interfaces, type LanState } from '../../server/services/lan-access.js';
