import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { trapTab } from '../../components/Modal.tsx';
import { PHONE_WIDTH, useMediaQuery } from '../../hooks/useMediaQuery.ts';
import { Composer } from './Composer.tsx';

/**
 * The stream's composer, so that posts come first. On the desktop it is one line of text that
 * grows into the whole composer when focused, and folds again when left with nothing written. On a
 * phone it waits behind a compose button and opens as a sheet over the stream; closed, it keeps
 * the draft.
 */
export function NewPost({ onPosted }: { onPosted: () => void }) {
  const phone = useMediaQuery(PHONE_WIDTH);
  const [open, setOpen] = useState(false);
  const [hasDraft, setHasDraft] = useState(false);
  const sheet = useRef<HTMLDivElement>(null);
  const composeButton = useRef<HTMLButtonElement>(null);
  const asSheet = phone && open;

  // Typing into a folded text box (the focus stayed after posting with Ctrl+Enter) opens it too.
  useEffect(() => {
    if (hasDraft) setOpen(true);
  }, [hasDraft]);

  // On the desktop: a click or the focus anywhere else folds an empty composer. A click folds it once
  // it is done, not as the button goes down: the page moving up under the pointer would lose the click.
  useEffect(() => {
    if (phone || !open || hasDraft) return;
    const outside = (target: EventTarget | null): target is Node => target instanceof Node && !sheet.current?.contains(target);
    let pressing = false;
    let pressedOutside = false;
    const pressed = (e: Event) => {
      pressing = true;
      pressedOutside = outside(e.target);
    };
    const released = () => {
      pressing = false;
    };
    const clickedAway = (e: Event) => {
      if (pressedOutside && outside(e.target)) setOpen(false);
    };
    // A click on text inside the composer (a label) gives the focus to the page's <main>, which holds
    // the composer: only a focus that went to something beside it counts, and not while pressing.
    const focusedAway = (e: Event) => {
      if (!pressing && outside(e.target) && !e.target.contains(sheet.current)) setOpen(false);
    };
    const listeners = [['pointerdown', pressed], ['pointerup', released], ['pointercancel', released], ['click', clickedAway], ['focusin', focusedAway]] as const;
    for (const [type, listener] of listeners) document.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of listeners) document.removeEventListener(type, listener);
    };
  }, [phone, open, hasDraft]);

  // The sheet on a phone: the text box takes the focus (unless it is in the composer already: the
  // window narrowed while writing); Escape closes it; Tab stays inside.
  useEffect(() => {
    if (!asSheet) return;
    if (!sheet.current?.contains(document.activeElement)) sheet.current?.querySelector<HTMLTextAreaElement>('textarea')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
      trapTab(e, sheet.current);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [asSheet]);

  const close = () => {
    setOpen(false);
    if (phone) requestAnimationFrame(() => composeButton.current?.focus());
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    // An Escape that closed something inside (the audience panel) is not for the composer.
    if (phone || e.key !== 'Escape' || e.defaultPrevented || hasDraft) return;
    setOpen(false);
    (document.activeElement as HTMLElement | null)?.blur();
  };

  return (
    <>
      {phone && !open && (
        <button type="button" ref={composeButton} className="compose-button" aria-label="New post" title="Write a post" onClick={() => setOpen(true)}>
          <Icon name="pen" size={24} />
        </button>
      )}
      <div
        ref={sheet}
        className={`new-post${asSheet ? ' new-post-sheet' : ''}${phone && !open ? ' new-post-hidden' : ''}`}
        role={asSheet ? 'dialog' : undefined}
        aria-modal={asSheet || undefined}
        aria-label={asSheet ? 'New post' : undefined}
        onKeyDown={onKeyDown}
      >
        {asSheet && (
          <div className="new-post-head">
            <h2>New post</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={close}>
              ×
            </button>
          </div>
        )}
        <Composer
          folded={!open}
          onFocus={() => setOpen(true)}
          onDraftChange={setHasDraft}
          onPosted={() => {
            // On the desktop the focus stays where it was (see useKeepFocus), and with it the composer, empty.
            if (phone) close();
            onPosted();
          }}
        />
      </div>
    </>
  );
}
