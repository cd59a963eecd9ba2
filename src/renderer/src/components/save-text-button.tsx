/**
 * Saves a text the page made (an APT source, an auth.conf line) as a file: handed to the
 * browser as a download of that name, which the desktop app's window asks where to put and
 * a browser puts in its downloads folder. Nothing goes through main: the text is already
 * the page's.
 */
import { Download } from 'lucide-react';

/** File names as the page offers them: no folders, no hidden files, nothing odd. */
function safeName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9+._-]/g, '_').replace(/^\.+/, '');
  return base === '' ? 'download.txt' : base.slice(0, 200);
}

export function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = safeName(name);
  link.rel = 'noopener';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has its own copy once it started; a moment later the URL can go.
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 10_000);
  }
}

export function SaveTextButton(props: {
  name: string;
  text: string;
  label?: string;
}): React.JSX.Element {
  return (
    <button
      type="button"
      className="button"
      onClick={() => {
        saveText(props.name, props.text);
      }}
    >
      <Download size={14} aria-hidden="true" />
      <span>{props.label ?? 'Save as…'}</span>
    </button>
  );
}
