import { useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';

export interface Place {
  location: string;
  coord: string;
}

/** A free-form place name and, if the person allows it, the device's position. */
export function LocationField({ value, onChange }: { value: Place; onChange: (p: Place) => void }) {
  const id = useId();
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<string>();

  const locate = () => {
    if (!navigator.geolocation) return setProblem('This browser cannot tell your position.');
    setLocating(true);
    setProblem(undefined);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating(false);
        onChange({ ...value, coord: `${pos.coords.latitude.toFixed(5)} ${pos.coords.longitude.toFixed(5)}` });
      },
      (err) => {
        setLocating(false);
        setProblem(err.code === err.PERMISSION_DENIED ? 'Hearth was not allowed to read your position.' : 'Your position could not be found.');
      },
      { timeout: 15000 },
    );
  };

  return (
    <div className="location-field">
      <label htmlFor={id} className="visually-hidden">
        Location
      </label>
      <Icon name="pin" size={16} />
      <input id={id} placeholder="Location (optional)" value={value.location} onChange={(e) => onChange({ ...value, location: e.target.value })} />
      {value.coord ? (
        <button type="button" className="chip" onClick={() => onChange({ ...value, coord: '' })} aria-label={`Remove position ${value.coord}`}>
          {value.coord.replace(' ', ', ')} ×
        </button>
      ) : (
        <button type="button" className="link-button" onClick={locate} disabled={locating}>
          {locating ? 'Finding you…' : 'Use my position'}
        </button>
      )}
      {problem && (
        <span className="field-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
