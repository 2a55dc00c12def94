import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { userNamed } from '../../api/profile.ts';
import { deleteMessage, isSentBy, markMessageRead, messagesWith, sendMessage, type DirectMessage } from '../../api/messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { Time } from '../../components/Time.tsx';
import { SafeHtml } from '../../content/SafeHtml.tsx';
import { FormatSelect } from '../../content/FormatSelect.tsx';
import { useWritingFormat } from '../../content/writingFormat.ts';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useMessagePages } from './useMessagePages.ts';
import { useUnreadMessages } from '../../messages.tsx';
import { Link } from '../../router.tsx';
import { useChannel } from '../../session.tsx';
import { plainText } from './plainText.ts';
import { defaultSubject } from '../../../../server/content/subject.ts';

/** Whether the message's subject is the one the hub gives a message sent without one. */
const hasDefaultSubject = (m: DirectMessage) => m.title === defaultSubject(plainText(m.text));

/** The conversation with one channel (/messages/<nick>): messages oldest first, and a reply box. */
export function ConversationPage({ nick }: { nick: string }) {
  const channel = useChannel();
  const { unread, refresh: refreshUnread } = useUnreadMessages();
  const person = useLoad(() => userNamed(nick), [nick]);
  // Asked once the person is known: a name nobody has would only add a failed request.
  const known = person.data?.screen_name;
  const messages = useMessagePages(async (maxId) => (known ? messagesWith(known, maxId) : undefined), [known]);
  const [deleting, setDeleting] = useState<DirectMessage>();

  // New messages from this person arrive with the unread count.
  useEffect(() => {
    if (unread > 0) void messages.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unread]);

  const list = messages.messages ? [...messages.messages].reverse() : undefined;
  // The newest message is in view when the conversation opens and after each new one.
  const end = useRef<HTMLDivElement>(null);
  const newest = messages.messages?.[0];
  useEffect(() => {
    if (newest) end.current?.scrollIntoView({ block: 'nearest' });
  }, [newest?.id]);
  const unseen = (list ?? []).filter((m) => !m.friendica_seen && !isSentBy(m, channel.nick)).map((m) => m.id);
  const unseenKey = unseen.join(',');
  useEffect(() => {
    if (!unseen.length) return;
    void (async () => {
      for (const id of unseen) await markMessageRead(id).catch(() => undefined);
      await refreshUnread();
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unseenKey]);

  if (person.status === 'loading' && !person.data) return <Loading label="Opening the conversation…" />;
  if (person.status === 'error') return <ErrorNote error={`The conversation could not be opened: ${person.error}`} onRetry={person.reload} />;
  const who = person.data;
  if (!who)
    return (
      <Empty title="There is no channel with this name here.">
        <Link to="/messages">Go to your messages</Link>
      </Empty>
    );
  const name = who.name || who.screen_name;

  return (
    <div className="page">
      <div className="page-head conversation-head">
        <Link to="/messages" className="button button-quiet button-small">
          All messages
        </Link>
        <Link to={`/channel/${encodeURIComponent(who.screen_name)}`} className="conversation-person">
          <Avatar src={who.profile_image_url} name={name} size={40} />
          <h1>{name}</h1>
        </Link>
      </div>
      <section className="card conversation" aria-label={`Messages with ${name}`}>
        {messages.status === 'error' && <ErrorNote error={`The messages could not be loaded: ${messages.error}`} onRetry={messages.reload} />}
        {!list && messages.status === 'loading' && <Loading label="Loading the messages…" />}
        {list && list.length === 0 && <p className="muted">No messages with {name} yet. Write the first one below; only {name} will see it.</p>}
        {list && messages.hasOlder && (
          <div className="load-more">
            <button type="button" className="button button-quiet button-small" onClick={() => void messages.loadOlder()} disabled={messages.loadingOlder}>
              {messages.loadingOlder ? 'Loading…' : 'Show earlier messages'}
            </button>
          </div>
        )}
        {messages.olderError && <ErrorNote error={`Earlier messages could not be loaded: ${messages.olderError}`} onRetry={() => void messages.loadOlder()} />}
        {list && list.length > 0 && (
          <ol className="message-list">
            {list.map((m, i) => {
              const mine = isSentBy(m, channel.nick);
              const startsConversation = i === 0 || list[i - 1]!.friendica_parent_uri !== m.friendica_parent_uri;
              return (
                <li key={m.id} className={mine ? 'message message-mine' : 'message'} aria-label={`${mine ? 'You' : name}, message`}>
                  {startsConversation && m.title && !hasDefaultSubject(m) && <p className="message-subject">{m.title}</p>}
                  <SafeHtml html={m.text} className="message-text" />
                  <span className="muted message-time">
                    <Time value={m.created_at} />
                    <button type="button" className="link-button message-delete" onClick={() => setDeleting(m)} aria-label={`Delete this message (${plainText(m.text).slice(0, 40)})`}>
                      Delete
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
        )}
        <Reply nick={who.screen_name} name={name} replyTo={newest?.id} onSent={messages.reload} />
        <div ref={end} />
      </section>
      {deleting && (
        <ConfirmDialog
          title="Delete this message?"
          message={`It goes from your messages. ${name} keeps their copy.`}
          confirmLabel="Delete"
          onConfirm={async () => {
            await deleteMessage(deleting.id);
            messages.remove(deleting.id);
            await messages.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

function Reply({ nick, name, replyTo, onSent }: { nick: string; name: string; replyTo?: number; onSent: () => Promise<void> }) {
  const [text, setText] = useState('');
  const id = useId();
  const action = useAction(sendMessage);
  const [format, setFormat] = useWritingFormat();

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if (await action.run({ nick, replyTo }, text.trim(), format)) {
      setText('');
      await onSent();
    }
  };

  return (
    <form className="message-form" onSubmit={send} aria-label="Write a message">
      <label htmlFor={id} className="visually-hidden">
        Message to {name}
      </label>
      <textarea
        id={id}
        rows={2}
        placeholder={`Message to ${name}…`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send(e);
        }}
      />
      <span className="message-form-tools">
        <FormatSelect value={format} onChange={setFormat} disabled={action.busy} className="format-select-small" />
        <button type="submit" className="button" disabled={action.busy || !text.trim()}>
          {action.busy ? 'Sending…' : 'Send'}
        </button>
      </span>
      {action.error && <ErrorNote error={action.error} />}
    </form>
  );
}
