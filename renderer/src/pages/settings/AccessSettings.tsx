import { useState } from 'react';
import { lanState, lanStateAfterMove, switchLan, type LanState } from '../../api/lan.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useSession } from '../../session.tsx';

const LOOPBACK = /^(127\.|localhost$|\[?::1\]?$)/;

/** What happened to the hub's address after a switch, told until the next one. */
type Moved = { on: boolean; url: string; here: boolean };

function StatusLine({ on, host }: { on: boolean; host: string }) {
  return (
    <p className={`status-line ${on ? 'status-on' : 'status-off'}`}>
      <span className="status-dot" aria-hidden="true" />
      {on ? `LAN access is on: devices on your network can reach your hub at ${host}.` : 'LAN access is off: only this computer can reach your hub.'}
    </p>
  );
}

/** After a switch: where the hub is now, and what that means for this page. */
function MovedNote({ moved }: { moved: Moved }) {
  if (!moved.here)
    return (
      <div className="notice-box lan-moved" role="status">
        <p>
          <strong>LAN access is off.</strong> This device cannot reach your hub any more. On the hub's own computer, it is at <code>{moved.url}</code>.
        </p>
      </div>
    );
  if (moved.on)
    return (
      <div className="notice-box lan-moved" role="status">
        <p>
          <strong>Your hub moved to {moved.url}.</strong> On your phone or another computer on the same network, open{' '}
          <a href={moved.url} target="_blank" rel="noopener noreferrer">
            {moved.url}
          </a>{' '}
          and log in with your password. Apps there use the addresses below.
        </p>
      </div>
    );
  return (
    <div className="notice-box lan-moved" role="status">
      <p>
        <strong>LAN access is off.</strong> Your hub is at <code>{moved.url}</code>, for this computer only; other devices lost their connection.
      </p>
    </div>
  );
}

/** Whether other devices can reach the hub, turning that on and off, and the addresses to give their apps. */
export function AccessSettings() {
  const { session, refresh } = useSession();
  const state = useLoad(lanState, []);
  const [moving, setMoving] = useState<boolean>();
  const [moved, setMoved] = useState<Moved>();
  const [confirmOff, setConfirmOff] = useState(false);
  const here = window.location.hostname;

  const change = useAction(async (on: boolean) => {
    setMoved(undefined);
    const planned = await switchLan(on);
    if (!planned.moving) return state.setData(planned);
    setMoving(on);
    try {
      // The hub drops every connection and listens again at its new address.
      const after = await lanStateAfterMove();
      if (!after) return setMoved({ on, url: planned.url, here: false });
      state.setData(after);
      await refresh();
      if (after.on !== on) throw new Error(after.problem ?? `LAN access could not be turned ${on ? 'on' : 'off'}.`);
      setMoved({ on, url: after.url, here: true });
    } finally {
      setMoving(undefined);
    }
  });

  const lan = state.data;
  const base = (lan?.url ?? session.baseUrl).replace(/\/+$/, '');
  const host = new URL(base).hostname;
  const on = lan ? lan.on : !LOOPBACK.test(host);
  // Off, the hub listens on 127.0.0.1 alone: a page from any other address is cut off, so it asks first.
  const turnOff = () => (here === '127.0.0.1' || here === 'localhost' ? void change.run(false) : setConfirmOff(true));

  // This page lost the hub: nothing here works any more but the note of where it went.
  if (moved && !moved.here)
    return (
      <div className="lan-settings">
        <StatusLine on={false} host={host} />
        <MovedNote moved={moved} />
      </div>
    );

  return (
    <div className="lan-settings">
      <StatusLine on={on} host={host} />
      {moving !== undefined && (
        <p className="muted" role="status">
          {moving ? 'Opening your hub to your network…' : 'Closing your hub to your network…'} Its connections restart.
        </p>
      )}
      {moved && <MovedNote moved={moved} />}
      {change.error && <ErrorNote error={`LAN access was not changed: ${change.error}`} />}
      {lan?.problem && !lan.on && <p className="notice-box">{lan.problem}</p>}
      {lan?.switchable && !on && (
        <>
          <p className="muted">
            {lan.lanUrl
              ? `With LAN access on, your phone and other computers on your network can use your hub, at ${lan.lanUrl}.`
              : 'No network connection was found: connect this computer to a network to let other devices in.'}
          </p>
          <div className="actions">
            <button type="button" className="button button-primary" disabled={change.busy || !lan.lanUrl} onClick={() => void change.run(true)}>
              {change.busy ? 'Turning on…' : 'Turn LAN access on'}
            </button>
          </div>
        </>
      )}
      {lan?.switchable && on && (
        <div className="actions">
          <button type="button" className="button button-quiet button-danger-text" disabled={change.busy} onClick={turnOff}>
            {change.busy ? 'Turning off…' : 'Turn LAN access off'}
          </button>
        </div>
      )}
      {lan && !lan.switchable && lan.restart && (
        <div className="lan-restart">
          <p className="muted">{lan.restart.why}</p>
          <CopyField label={on ? 'To keep it to this computer, start it with' : 'To open it to your network, start it with'} value={on ? lan.restart.off : lan.restart.on} />
        </div>
      )}
      {state.status === 'error' && !lan && <ErrorNote error={`Network access could not be read: ${state.error}`} onRetry={state.reload} />}
      <CopyField label="Hub address" value={base} />
      <CopyField label="Microblog apps (Twitter / GNU social / Friendica API)" value={`${base}/api/`} />
      <CopyField label="Hubzilla-style apps (native API)" value={`${base}/api/z/1.0/`} />
      {session.channel && <CopyField label="Your channel address" value={session.channel.address} />}
      {confirmOff && (
        <ConfirmDialog
          title="Turn LAN access off?"
          message={`You are using your hub from another device (${here}). Once LAN access is off, only the hub's own computer can reach it: this page loses its connection.`}
          confirmLabel="Turn LAN access off"
          onConfirm={() => change.run(false)}
          onClose={() => setConfirmOff(false)}
        />
      )}
    </div>
  );
}
