import { useState, type FormEvent } from 'react';
import { renameAlbum } from '../../api/photos.ts';
import { Modal } from '../../components/Modal.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { albumNameProblem } from './albumNames.ts';

export function RenameAlbumDialog({ album, onClose, onRenamed }: { album: string; onClose: () => void; onRenamed: (name: string) => void }) {
  const [name, setName] = useState(album);
  const action = useAction(renameAlbum);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const to = name.trim();
    if (!to || to === album) return onClose();
    const problem = albumNameProblem(to);
    if (problem) return action.setError(problem);
    if (await action.run(album, to)) {
      onClose();
      onRenamed(to);
    }
  };
  return (
    <Modal title="Rename album" onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label>
          New name
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        </label>
        {action.error && <ErrorNote error={action.error} />}
        <div className="actions">
          <button type="button" className="button button-quiet" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={action.busy}>
            {action.busy ? 'Renaming…' : 'Rename'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
