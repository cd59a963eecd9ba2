import { Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useCapabilities } from '@renderer/queries/app';
import { useUiStore } from '@renderer/state/ui-store';
import { filesOfDrop } from './collect-files';
import { usePaletteRegistry } from '@renderer/state/palette';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/**
 * The whole window is a drop target for files and folders: a drop anywhere goes to the
 * Upload screen, which turns it into local artifacts.
 */
export function WindowDropTarget(): React.JSX.Element | null {
  // Until the host has said who walks a dropped folder, the drop's files go as they are.
  const walkFolders = useCapabilities()?.dropFolders === 'page';
  const setArea = useUiStore((s) => s.setArea);
  const request = usePaletteRegistry((s) => s.request);
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    const onEnter = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      depth.current += 1;
      setOver(true);
    };
    const onOver = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const onDrop = (event: DragEvent): void => {
      depth.current = 0;
      setOver(false);
      const data = event.dataTransfer;
      if (!data || !carriesFiles(event)) return;
      event.preventDefault();
      void filesOfDrop(data, walkFolders).then((files) => {
        if (files.length === 0) return;
        setArea('upload');
        request({ kind: 'upload.dropped', files });
      });
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [walkFolders, setArea, request]);

  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <Upload size={28} />
      <span>Drop packages or folders to prepare an upload</span>
    </div>
  );
}
