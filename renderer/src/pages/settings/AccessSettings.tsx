import { CopyField } from '../../components/CopyField.tsx';
import { useSession } from '../../session.tsx';

const LOOPBACK = /^(127\.|localhost$|\[?::1\]?$)/;

/** Whether other devices can reach the hub, and the addresses to give their apps. */
export function AccessSettings() {
  const { session } = useSession();
  const base = session.baseUrl.replace(/\/+$/, '');
  const host = new URL(base).hostname;
  const local = LOOPBACK.test(host);
  return (
    <div>
      <p className={`status-line ${local ? 'status-off' : 'status-on'}`}>
        <span className="status-dot" aria-hidden="true" />
        {local ? 'LAN access is off: only this computer can reach your hub.' : `LAN access is on: devices on your network can reach your hub at ${host}.`}
      </p>
      <p className="muted">{local ? 'Turn on LAN access from the Hearth desktop app (its menu) to use apps on your phone or other computers.' : 'You can turn LAN access off again from the Hearth desktop app.'}</p>
      <CopyField label="Hub address" value={base} />
      <CopyField label="Microblog apps (Twitter / GNU social / Friendica API)" value={`${base}/api/`} />
      <CopyField label="Hubzilla-style apps (native API)" value={`${base}/api/z/1.0/`} />
      {session.channel && <CopyField label="Your channel address" value={session.channel.address} />}
    </div>
  );
}
