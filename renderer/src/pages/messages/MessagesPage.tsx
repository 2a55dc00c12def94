import { conversationsOf, isSentBy, recentMessages, type Conversation } from '../../api/messages.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { Time } from '../../components/Time.tsx';
import { Link } from '../../router.tsx';
import { useChannel } from '../../session.tsx';
import { NewMessage } from './NewMessage.tsx';
import { plainText } from './plainText.ts';
import { useMessagePages } from './useMessagePages.ts';

/** Direct messages: one line per person, the latest conversation first, and a way to start one. */
export function MessagesPage() {
  const channel = useChannel();
  const messages = useMessagePages(recentMessages, []);
  const conversations = messages.messages ? conversationsOf(messages.messages, channel.nick) : undefined;

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Messages</h1>
          <p className="muted">Private conversations with your connections.</p>
        </div>
      </div>
      <NewMessage />
      {messages.status === 'error' && <ErrorNote error={`The messages could not be loaded: ${messages.error}`} onRetry={messages.reload} />}
      {!conversations && messages.status === 'loading' && <Loading label="Loading your messages…" />}
      {conversations && conversations.length === 0 && <Empty title="No messages yet.">Start a conversation with one of your connections above.</Empty>}
      {conversations && conversations.length > 0 && (
        <ul className="card conversation-list" aria-label="Conversations">
          {conversations.map((c) => (
            <ConversationLine key={c.nick} conversation={c} mine={isSentBy(c.last, channel.nick)} />
          ))}
        </ul>
      )}
      {conversations && messages.hasOlder && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => void messages.loadOlder()} disabled={messages.loadingOlder}>
            {messages.loadingOlder ? 'Loading…' : 'Show older conversations'}
          </button>
        </div>
      )}
      {messages.olderError && <ErrorNote error={`Older messages could not be loaded: ${messages.olderError}`} onRetry={() => void messages.loadOlder()} />}
    </div>
  );
}

function ConversationLine({ conversation: c, mine }: { conversation: Conversation; mine: boolean }) {
  const name = c.user?.name || c.nick;
  return (
    <li className={c.unread ? 'conversation-line conversation-unread' : 'conversation-line'}>
      {/* Named by what it shows, the last message too (an aria-label would hide that): "Conversation with Bob, 1 unread: …". */}
      <Link to={`/messages/${encodeURIComponent(c.nick)}`}>
        <Avatar src={c.user?.profile_image_url} name={name} size={44} />
        <span className="conversation-text">
          <span className="conversation-name">
            <span className="visually-hidden">{`Conversation with ${name}${c.unread ? `, ${c.unread} unread` : ''}:`}</span>
            <span aria-hidden="true">{name}</span>
            {c.unread > 0 && (
              <span className="badge" aria-hidden="true">
                {c.unread}
              </span>
            )}
          </span>
          <span className="muted conversation-last">
            {mine ? 'You: ' : ''}
            {plainText(c.last.text)}
          </span>
        </span>
        <span className="muted conversation-time">
          <Time value={c.last.created_at} />
        </span>
      </Link>
    </li>
  );
}
