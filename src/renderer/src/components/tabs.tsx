import { useRef, type ReactNode } from 'react';

export interface TabInfo<T extends string> {
  id: T;
  label: string;
  icon?: ReactNode;
}

/** WAI-ARIA tabs: arrow keys move between tabs, the panel follows. */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: readonly TabInfo<T>[];
  selected: T;
  onSelect: (id: T) => void;
  idPrefix: string;
}): React.JSX.Element {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const move = (delta: number): void => {
    const index = props.tabs.findIndex((t) => t.id === props.selected);
    const next = props.tabs[(index + delta + props.tabs.length) % props.tabs.length];
    if (!next) return;
    props.onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div
      className="tabs"
      role="tablist"
      aria-label={props.label}
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight') move(1);
        else if (event.key === 'ArrowLeft') move(-1);
        else return;
        event.preventDefault();
      }}
    >
      {props.tabs.map((tab) => (
        <button
          key={tab.id}
          ref={(el) => {
            if (el) refs.current.set(tab.id, el);
            else refs.current.delete(tab.id);
          }}
          type="button"
          role="tab"
          id={`${props.idPrefix}-tab-${tab.id}`}
          aria-controls={`${props.idPrefix}-panel`}
          aria-selected={tab.id === props.selected}
          tabIndex={tab.id === props.selected ? 0 : -1}
          className="tab"
          onClick={() => {
            props.onSelect(tab.id);
          }}
        >
          {tab.icon}
          <span>{tab.label}</span>
        </button>
      ))}
    </div>
  );
}

export function TabPanel(props: {
  idPrefix: string;
  selected: string;
  children: ReactNode;
}): React.JSX.Element {
  return (
    <div
      role="tabpanel"
      id={`${props.idPrefix}-panel`}
      aria-labelledby={`${props.idPrefix}-tab-${props.selected}`}
      className="tab-panel"
    >
      {props.children}
    </div>
  );
}
