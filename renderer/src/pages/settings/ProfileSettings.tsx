import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeError } from '../../api/http.ts';
import { setProfileImage } from '../../api/photos.ts';
import { updateProfile } from '../../api/profile.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useMe } from '../../me.tsx';
import { useNotify } from '../../notices.tsx';
import { uploadProblem, useUploadLimit } from '../../uploadLimit.ts';

/** Name, about text and profile photo. */
export function ProfileSettings() {
  const ids = useId();
  const { me, error: meError, refresh, replace, photoChanged, photo } = useMe();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [about, setAbout] = useState('');
  const [progress, setProgress] = useState<number>();
  const [photoError, setPhotoError] = useState<string>();
  const uploadLimit = useUploadLimit();

  useEffect(() => {
    if (me) {
      setName(me.name ?? '');
      setAbout(me.description ?? '');
    }
  }, [me]);

  const save = useAction(async () => {
    replace(await updateProfile(name.trim(), about));
    notify('Your profile was saved.', 'info');
  });

  const uploadPhoto = async (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) return setPhotoError('Choose a photo (JPEG, PNG, GIF or WebP).');
    const refused = uploadProblem([file], uploadLimit);
    if (refused) return setPhotoError(refused);
    setPhotoError(undefined);
    setProgress(0);
    try {
      await setProfileImage(file, file.name, setProgress).promise;
      await photoChanged();
      notify('Your profile photo was changed.', 'info');
    } catch (err) {
      setPhotoError(`The photo was not changed: ${describeError(err)}`);
    } finally {
      setProgress(undefined);
    }
  };

  if (!me && meError) return <ErrorNote error={`Your profile could not be loaded: ${meError}`} onRetry={() => void refresh()} />;
  if (!me) return <Loading label="Loading your profile…" />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return save.setError('Your name cannot be empty.');
    void save.run();
  };

  return (
    <div className="profile-settings">
      <div className="profile-photo">
        <Avatar src={photo(me.profile_image_url_large || me.profile_image_url)} name={me.name} size={120} />
        <input id={`${ids}-photo`} type="file" accept="image/*" className="visually-hidden" onChange={(e) => void uploadPhoto(e.target.files?.[0]).finally(() => (e.target.value = ''))} disabled={progress !== undefined} />
        <label htmlFor={`${ids}-photo`} className="button button-quiet button-small">
          {progress !== undefined ? 'Uploading…' : 'Change photo'}
        </label>
        {progress !== undefined && <ProgressBar value={progress} label="Uploading profile photo" />}
        {photoError && <ErrorNote error={photoError} />}
      </div>
      <form className="form profile-form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={190} required />
        </label>
        <label>
          About you
          <textarea rows={4} value={about} onChange={(e) => setAbout(e.target.value)} placeholder="A few words about yourself" />
        </label>
        {save.error && <ErrorNote error={`Your profile was not saved: ${save.error}`} />}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </form>
    </div>
  );
}
