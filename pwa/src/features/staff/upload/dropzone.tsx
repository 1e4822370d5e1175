import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '../../../components/ui/button';

/** Drag and drop or choose files; the input's accept list only guides the picker (limits.ts decides). */
export function Dropzone({ onFiles, disabled = false }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <div
      className={over ? 'dropzone dropzone-over' : 'dropzone'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p className="dropzone-title">Drag and drop photos here</p>
      <p id={hintId} className="muted">
        JPG, PNG or GIF, up to 10MB each and 500 per selection.
      </p>
      <Button variant="outline" onClick={() => input.current?.click()} disabled={disabled} aria-describedby={hintId}>
        Choose Files
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/gif"
        multiple
        hidden
        data-testid="photo-input"
        aria-label="Choose photos to upload"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
    </div>
  );
}
