import { useUiStore } from '@renderer/state/ui-store';
import { AREA_INFO } from './areas';

export function Sidebar(): React.JSX.Element {
  const area = useUiStore((s) => s.area);
  const setArea = useUiStore((s) => s.setArea);
  const isMac = navigator.platform.startsWith('Mac');
  return (
    <nav className="sidebar" aria-label="Areas">
      <ul>
        {AREA_INFO.map((info, index) => {
          const Icon = info.icon;
          return (
            <li key={info.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={info.id === area ? 'page' : undefined}
                title={`${info.description} (${isMac ? '⌘' : 'Ctrl+'}${String(index + 1)})`}
                onClick={() => {
                  setArea(info.id);
                }}
              >
                <Icon size={16} aria-hidden="true" />
                <span>{info.label}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
