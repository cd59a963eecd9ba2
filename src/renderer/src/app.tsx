import { useState } from 'react';

const AREAS = [
  'Upload',
  'Work requests',
  'Artifacts',
  'Workspaces',
  'Collections',
  'Templates',
  'Settings',
] as const;
type Area = (typeof AREAS)[number];

export function App(): React.JSX.Element {
  const [area, setArea] = useState<Area>('Upload');
  return (
    <div className="app-shell" data-testid="app-shell">
      <header className="top-bar" role="banner">
        <span className="brand">Debusine Desktop</span>
        <span className="top-bar-spacer" />
        <span className="connection" role="status" aria-live="polite">
          <span className="connection-dot" aria-hidden="true" /> Not signed in
        </span>
      </header>
      <nav className="sidebar" aria-label="Areas">
        <ul>
          {AREAS.map((name) => (
            <li key={name}>
              <button
                type="button"
                className="nav-item"
                aria-current={name === area ? 'page' : undefined}
                onClick={() => {
                  setArea(name);
                }}
              >
                {name}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content" aria-labelledby="area-title">
        <h1 id="area-title">{area}</h1>
      </main>
    </div>
  );
}
