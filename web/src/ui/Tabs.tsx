import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  key: string;
  label: ReactNode;
}

/**
 * Tabs (the ARIA tabs pattern): one tab panel shown at a time, the selected tab in the Tab
 * order, Left/Right/Home/End moving between tabs. Only the selected panel is rendered.
 */
export function Tabs({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  label: string;
  items: TabItem[];
  selected: string;
  onSelect: (key: string) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const to =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (to === undefined) return;
    event.preventDefault();
    const item = items[to];
    if (!item) return;
    onSelect(item.key);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[to]?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} ref={list} className="tab-list">
        {items.map((item, index) => (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-selected={item.key === selected}
            aria-controls={`${id}-panel`}
            tabIndex={item.key === selected ? 0 : -1}
            onClick={() => onSelect(item.key)}
            onKeyDown={(event) => move(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`} className="tab-panel">
        {children}
      </div>
    </div>
  );
}
