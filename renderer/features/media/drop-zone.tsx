import { useRef, useState, type DragEvent, type ReactNode } from 'react';

/** Props of the drop zone. */
export interface DropZoneProps {
  readonly onFiles: (files: File[]) => void;
  readonly accept?: string;
  readonly children?: ReactNode;
  readonly compact?: boolean;
}

/** Accepts files dropped on it or chosen with its button (several at once). */
export function DropZone({ onFiles, accept, children, compact }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };
  return (
    <div
      className={`drop-zone${over ? ' drop-over' : ''}${compact ? ' drop-compact' : ''}`}
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p>{over ? 'Drop to upload' : 'Drag files here, or'}</p>
      <button type="button" className="btn" onClick={() => input.current?.click()}>
        Choose files
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={accept}
        className="visually-hidden"
        aria-label="Files to upload"
        tabIndex={-1}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      {children}
    </div>
  );
}
