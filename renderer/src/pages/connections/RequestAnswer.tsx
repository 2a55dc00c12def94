import { acceptRequest, ignoreRequest, isIgnored } from '../../api/connections.ts';
import type { Connection } from '../../api/types.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';

/** Accept and Ignore for a connection request; `onAnswered` runs after either succeeded. */
export function RequestAnswer({ connection, onAnswered }: { connection: Connection; onAnswered: (answer: 'accepted' | 'ignored') => void | Promise<void> }) {
  const name = connection.xchan_name || connection.xchan_addr || 'them';
  const accept = useAction(async () => {
    await acceptRequest(connection);
    await onAnswered('accepted');
  });
  const ignore = useAction(async () => {
    await ignoreRequest(connection);
    await onAnswered('ignored');
  });
  const busy = accept.busy || ignore.busy;
  const ignored = isIgnored(connection);
  return (
    <div className="request-answer" role="group" aria-label={`Connection request from ${name}`}>
      <button type="button" className="button button-primary button-small" onClick={() => void accept.run()} disabled={busy}>
        {accept.busy ? 'Accepting…' : 'Accept'}
      </button>
      {!ignored && (
        <button type="button" className="button button-quiet button-small" onClick={() => void ignore.run()} disabled={busy}>
          {ignore.busy ? 'Ignoring…' : 'Ignore'}
        </button>
      )}
      {accept.error && <ErrorNote error={`The request was not accepted: ${accept.error}`} />}
      {ignore.error && <ErrorNote error={`The request was not ignored: ${ignore.error}`} />}
    </div>
  );
}
