import { NICK, addressHere } from '../addresses.ts';
import { useSession } from '../session.tsx';

/** Under a nickname field: what a nickname may be, and the address it makes once it is a valid one. */
export function AddressHint({ id, nick, whose }: { id: string; nick: string; whose: 'Your' | 'Its' }) {
  const { session } = useSession();
  const typed = nick.trim().toLowerCase();
  return (
    <p className="hint" id={id}>
      Lowercase letters, digits, - and _, starting with a letter.{' '}
      {NICK.test(typed) ? (
        <>
          {whose} address will be <strong>{addressHere(session, typed)}</strong>.
        </>
      ) : (
        <>
          {whose} address will be <strong>nickname@{session.addressHost}</strong>.
        </>
      )}
    </p>
  );
}
