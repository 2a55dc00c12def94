import { useEffect, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { Modal } from '../../components/Modal.tsx';
import { hubPhoto } from '../../content/hubPhoto.ts';
import type { Picture } from '../../content/pictureRuns.ts';
import { FullSizeImage, ViewerStage } from './ViewerStage.tsx';

/**
 * The photo viewer for pictures that are not the channel's own (someone else's post): the same
 * stage, previous and next, full size and download, without the owner's editing.
 */
export function PictureViewer({ pictures, index, onNavigate, onClose }: { pictures: Picture[]; index: number; onNavigate: (index: number) => void; onClose: () => void }) {
  const [fullSize, setFullSize] = useState(false);
  useEffect(() => setFullSize(false), [index]);
  const picture = pictures[index]!;
  const photo = hubPhoto(picture.src);
  const shown = photo ? photo.scale(1) : picture.src;
  const original = photo ? photo.scale(0) : picture.src;
  const description = picture.alt.trim();
  return (
    <Modal title={description || 'Photo'} onClose={onClose} wide>
      <div className="viewer">
        <ViewerStage onPrev={index > 0 ? () => onNavigate(index - 1) : undefined} onNext={index < pictures.length - 1 ? () => onNavigate(index + 1) : undefined}>
          {fullSize ? <FullSizeImage src={original} alt={description} /> : <img className="viewer-image" src={shown} alt={description} />}
        </ViewerStage>
        <div className="viewer-side">
          <p className="muted">
            {index + 1} of {pictures.length}
          </p>
          {description && <p>{description}</p>}
          <div className="viewer-size-tools">
            <button type="button" className="button button-quiet" aria-pressed={fullSize} onClick={() => setFullSize(!fullSize)}>
              <Icon name={fullSize ? 'shrink' : 'expand'} size={18} /> {fullSize ? 'Fit to window' : 'View full size'}
            </button>
            <a className="button button-quiet" href={original} download={description || 'photo'}>
              <Icon name="download" size={18} /> Download
            </a>
          </div>
        </div>
      </div>
    </Modal>
  );
}
