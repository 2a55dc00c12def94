import { useId, useState, type FormEvent } from 'react';
import { federationState, switchFederation, type FederationState } from '../../api/federation.ts';
import { socialSettings } from '../../api/socialSettings.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';
import { useSession } from '../../session.tsx';

function StatusLine({ state }: { state: FederationState }) {
  if (!state.on)
    return (
      <p className="status-line status-off">
        <span className="status-dot" aria-hidden="true" />
        Federation is off: your channels are known on this hub only.
      </p>
    );
  if (!state.running)
    return (
      <p className="status-line status-warn">
        <span className="status-dot" aria-hidden="true" />
        Federation is on, but it does not run.
      </p>
    );
  return (
    <p className="status-line status-on">
      <span className="status-dot" aria-hidden="true" />
      Federation is on: people on Mastodon and other ActivityPub servers can find and follow your channels.
    </p>
  );
}

/** Whether the channel approves its followers by hand (set under Followers and comments). */
function FollowersNote() {
  const social = useLoad(socialSettings, []);
  if (!social.data) return null;
  return (
    <p className="muted federation-followers">
      {social.data.protected ? 'You approve each new follower by hand, here and elsewhere.' : 'Anyone, here or elsewhere, can follow your channel at once.'}{' '}
      <a href="#settings-social">Change this under Followers and comments</a>
    </p>
  );
}

/** The form that turns federation on the first time: the public https address, with what it takes. */
function FirstTurnOn({ state, busy, onTurnOn }: { state: FederationState; busy: boolean; onTurnOn: (url: string) => void }) {
  const ids = useId();
  const [url, setUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim()) onTurnOn(url.trim());
  };
  return (
    <form className="form federation-form" onSubmit={submit}>
      <label>
        Public https address of this hub
        <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hearth.example.org" aria-describedby={`${ids}-hint`} autoComplete="off" required />
      </label>
      <div id={`${ids}-hint`} className="hint federation-hint">
        <p>
          Other servers must reach your hub over https at a name of its own. A computer at home usually cannot be reached from the internet by itself, so give Hearth one of these:
        </p>
        <ul>
          <li>a tunnel that gives it a public https name: Cloudflare Tunnel, Tailscale Funnel, or an ssh reverse tunnel to a server you rent;</li>
          <li>a reverse proxy (Caddy, nginx) on a home server or a rented one, with a domain and a certificate.</li>
        </ul>
        <p>Type the address that tunnel or proxy gives you. Once federation is on, this address stays for good: other servers know your channels by it.</p>
        {state.insecure && <p className="notice-box">HEARTH_FEDERATION_INSECURE=1 is set: http and addresses on your own network are accepted too. That is for tests and LAN experiments only.</p>}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy || !url.trim()}>
          {busy ? 'Turning on…' : 'Turn federation on'}
        </button>
      </div>
    </form>
  );
}

/**
 * Settings → Federation (the hub owner's): whether the hub federates over ActivityPub and runs,
 * its public address (fixed once on), why it does not run, and turning it on or off.
 */
export function FederationSettings() {
  const { session, refresh } = useSession();
  const notify = useNotify();
  const loaded = useLoad(federationState, []);
  const [leaving, setLeaving] = useState(false);

  // The hub's addresses follow the federation's: the session learns the new base URL.
  const applied = async (state: FederationState) => {
    loaded.setData(state);
    await refresh();
  };
  const turnOn = useAction(async (url?: string) => {
    const state = await switchFederation(true, url);
    await applied(state);
    notify(state.running ? 'Federation is on.' : 'Federation is on, but it does not run yet; see why below.', 'info');
  });

  if (loaded.status === 'error' && !loaded.data) return <ErrorNote error={`The federation settings could not be loaded: ${loaded.error}`} onRetry={loaded.reload} />;
  const state = loaded.data;
  if (!state) return <Loading label="Loading the federation settings…" />;
  const nick = session.channel?.nick;
  const host = state.url ? new URL(state.url).host : undefined;

  return (
    <div className="federation-settings">
      <StatusLine state={state} />
      <p className="muted">
        With federation on, each of your channels is an ActivityPub actor: people on Mastodon and other servers of the fediverse can follow it, and you can follow them, comment, like and share across servers.
      </p>
      {state.on && state.problem && <p className="notice-box federation-problem">{state.problem.charAt(0).toUpperCase() + state.problem.slice(1)}.</p>}
      {state.url && (
        <>
          <CopyField label="Public address (fixed for good)" value={state.url} />
          {nick && host && <CopyField label="Your channel's address elsewhere" value={`@${nick}@${host}`} />}
        </>
      )}
      {turnOn.error && <ErrorNote error={`Federation was not turned on: ${turnOn.error}`} />}
      {!state.on && !state.url && <FirstTurnOn state={state} busy={turnOn.busy} onTurnOn={(url) => void turnOn.run(url)} />}
      {!state.on && state.url && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => void turnOn.run()} disabled={turnOn.busy}>
            {turnOn.busy ? 'Turning on…' : 'Turn federation on again'}
          </button>
        </div>
      )}
      {state.on && (
        <div className="actions">
          <button type="button" className="button button-quiet button-danger-text" onClick={() => setLeaving(true)}>
            Turn federation off
          </button>
        </div>
      )}
      <FollowersNote />
      {leaving && (
        <ConfirmDialog
          title="Turn federation off?"
          message="Other servers can no longer reach your channels: your followers there stop getting your posts, and what is on its way to them waits until you turn federation on again. Your connections and posts stay, and so does the public address."
          confirmLabel="Turn federation off"
          onConfirm={async () => {
            await applied(await switchFederation(false));
            notify('Federation is off.', 'info');
          }}
          onClose={() => setLeaving(false)}
        />
      )}
    </div>
  );
}
