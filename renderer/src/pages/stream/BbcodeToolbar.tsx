import type { ReactNode, RefObject } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { linkFromSelection, listFromSelection, wrapSelection, type TextEdit } from '../../content/bbcodeEdit.ts';

const SIMPLE: Array<{ label: string; text: ReactNode; open: string; close: string; className?: string; key?: string }> = [
  { label: 'Bold', text: 'B', open: '[b]', close: '[/b]', className: 'tb-bold', key: 'b' },
  { label: 'Italic', text: 'I', open: '[i]', close: '[/i]', className: 'tb-italic', key: 'i' },
  { label: 'Underline', text: 'U', open: '[u]', close: '[/u]', className: 'tb-underline', key: 'u' },
  { label: 'Strike through', text: 'S', open: '[s]', close: '[/s]', className: 'tb-strike' },
  { label: 'Quote', text: <Icon name="quote" size={17} />, open: '[quote]', close: '[/quote]' },
  { label: 'Code', text: <Icon name="code" size={17} />, open: '[code]', close: '[/code]' },
  { label: 'Image from a web address', text: <Icon name="image" size={17} />, open: '[img]', close: '[/img]' },
];

/** Buttons that insert BBCode around the selection of the composer's text area. */
export function BbcodeToolbar({ target, onEdit }: { target: RefObject<HTMLTextAreaElement | null>; onEdit: (edit: TextEdit) => void }) {
  const apply = (make: (value: string, start: number, end: number) => TextEdit) => {
    const el = target.current;
    if (!el) return;
    const edit = make(el.value, el.selectionStart, el.selectionEnd);
    onEdit(edit);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(edit.selectionStart, edit.selectionEnd);
    });
  };
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      {SIMPLE.map((b) => (
        <button key={b.label} type="button" className={`tb ${b.className ?? ''}`} aria-label={b.label} title={b.key ? `${b.label} (Ctrl+${b.key.toUpperCase()})` : b.label} onClick={() => apply((v, s, e) => wrapSelection(v, s, e, b.open, b.close))}>
          {b.text}
        </button>
      ))}
      <button type="button" className="tb" aria-label="Link" title="Link" onClick={() => apply(linkFromSelection)}>
        <Icon name="link" size={17} />
      </button>
      <button type="button" className="tb" aria-label="List" title="List" onClick={() => apply(listFromSelection)}>
        <Icon name="list" size={17} />
      </button>
    </div>
  );
}

/** Ctrl+B / Ctrl+I / Ctrl+U inside the text area. */
export function shortcutFor(key: string): { open: string; close: string } | undefined {
  const b = SIMPLE.find((s) => s.key === key.toLowerCase());
  return b ? { open: b.open, close: b.close } : undefined;
}
