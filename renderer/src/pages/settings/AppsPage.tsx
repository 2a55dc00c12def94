import { useState, type FormEvent } from 'react';
import { deleteApp, kindLabel, loadAppAccess, registerApp, revokeGrant, type AccessGrant, type NewApp, type RegisteredApp } from '../../api/appAccess.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { Time } from '../../components/Time.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { useSession } from '../../session.tsx';

const EMPTY: NewApp = { name: '', key: '', secret: '', redirect: '', icon: '' };

function AppSecret({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <code>{secret}</code>
  ) : (
    <button type="button" className="link-button" onClick={() => setShown(true)}>
      Show secret
    </button>
  );
}

function AddAppForm({ onAdded }: { onAdded: (app: RegisteredApp) => void }) {
  const [values, setValues] = useState<NewApp>(EMPTY);
  const add = useAction(async () => {
    onAdded(await registerApp(values));
    setValues(EMPTY);
  });
  const field = (key: keyof NewApp, label: string, hint?: string, placeholder?: string) => (
    <label>
      {label}
      <input value={values[key]} onChange={(e) => setValues({ ...values, [key]: e.target.value })} maxLength={191} placeholder={placeholder} autoComplete="off" required={key === 'name'} />
      {hint && <span className="muted field-hint">{hint}</span>}
    </label>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Add an app">
      {field('name', 'Name')}
      {field('key', 'Consumer key', 'Leave key and secret empty to have them made for you.')}
      {field('secret', 'Consumer secret')}
      {field('redirect', 'Redirect (callback URL)', undefined, 'Empty: the app shows a code to type in')}
      {field('icon', 'Icon URL')}
      {add.error && <ErrorNote error={`The app was not added: ${add.error}`} />}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={add.busy || !values.name.trim()}>
          {add.busy ? 'Adding…' : 'Add app'}
        </button>
      </div>
    </form>
  );
}

/**
 * /settings/oauth/: the access apps hold to the account's channels (every kind of token, each
 * revocable), and the apps registered for the microblog API's OAuth 1.0a.
 */
export function AppsPage() {
  const { session } = useSession();
  const access = useLoad(loadAppAccess, []);
  const [added, setAdded] = useState<RegisteredApp>();
  const [revoking, setRevoking] = useState<AccessGrant>();
  const [deleting, setDeleting] = useState<RegisteredApp>();
  const data = access.data;

  return (
    <div className="page">
      <p className="back">
        <Link to="/settings">← Settings</Link>
      </p>
      <h1>Apps</h1>
      <p className="muted">The apps that use your hub, and the access you gave them. An app acts for the one channel you approved it for.</p>
      {access.status === 'loading' && !data && <Loading label="Loading your apps…" />}
      {access.status === 'error' && <ErrorNote error={`Your apps could not be loaded: ${access.error}`} onRetry={access.reload} />}
      {data && (
        <>
          <section className="card" aria-labelledby="apps-access">
            <h2 id="apps-access">Access you gave</h2>
            {data.grants.length === 0 ? (
              <p className="muted">No app has access to your channels.</p>
            ) : (
              <ul className="list" aria-label="Access you gave">
                {data.grants.map((g) => (
                  <li key={`${g.kind}:${g.id}`} className="list-row">
                    <span className="list-main">
                      <span className="person-name">{g.app}</span>
                      <span className="muted">
                        {g.channel || 'App only, no channel'} · {kindLabel(g.kind)}
                        {g.scopes ? ` · ${g.scopes}` : ''} · {g.channel ? 'approved' : 'since'} <Time value={g.created} />
                      </span>
                    </span>
                    <button type="button" className="button button-quiet button-small button-danger-text" onClick={() => setRevoking(g)}>
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card" aria-labelledby="apps-registered">
            <h2 id="apps-registered">Registered apps</h2>
            <p className="muted">
              Apps for the microblog API (<code>{session.baseUrl}/api/</code>) sign in with OAuth 1.0a, with a consumer key and secret registered here.
            </p>
            {added && (
              <div className="notice-box" role="status">
                Added <strong>{added.name}</strong>. Consumer key <code>{added.client_id}</code>, consumer secret <code>{added.secret}</code>.
              </div>
            )}
            {data.apps.length === 0 ? (
              <Empty title="No apps registered yet." />
            ) : (
              <ul className="list" aria-label="Registered apps">
                {data.apps.map((a) => (
                  <li key={a.client_id} className="list-row">
                    <span className="list-main">
                      <span className="person-name">{a.name}</span>
                      <span className="muted app-keys">
                        Key <code>{a.client_id}</code> · <AppSecret secret={a.secret} />
                      </span>
                      <span className="muted">{a.redirect_uri ? `Redirects to ${a.redirect_uri}` : 'No redirect: shows a code to type in'}</span>
                    </span>
                    <button type="button" className="button button-quiet button-small button-danger-text" onClick={() => setDeleting(a)}>
                      Delete
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <h3>Add an app</h3>
            <AddAppForm
              onAdded={(app) => {
                setAdded(app);
                void access.reload();
              }}
            />
          </section>
        </>
      )}
      {revoking && (
        <ConfirmDialog
          title={revoking.channel ? `Revoke the access of ${revoking.app}?` : `Remove the app ${revoking.app}?`}
          message={
            revoking.channel
              ? `${revoking.app} can no longer act for ${revoking.channel}, at once. It can ask again later.`
              : `${revoking.app} took this access with its own app credentials, for no channel: it reads only what anyone may read here. Removing the app ends its credentials and every access it holds, for any channel too, at once. It can register again.`
          }
          confirmLabel={revoking.channel ? 'Revoke' : 'Remove'}
          onConfirm={async () => {
            await revokeGrant(revoking);
            await access.reload();
          }}
          onClose={() => setRevoking(undefined)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete the app ${deleting.name}?`}
          message="Its key stops working, and every access it holds ends with it."
          confirmLabel="Delete"
          onConfirm={async () => {
            await deleteApp(deleting.client_id);
            if (added?.client_id === deleting.client_id) setAdded(undefined);
            await access.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
