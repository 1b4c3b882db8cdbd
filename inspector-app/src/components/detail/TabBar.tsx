import { useRef, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';

export interface TabBarProps<T extends string> {
  readonly tabs: readonly T[];
  readonly labels: Record<T, string>;
  readonly selected: T;
  readonly onSelect: (tab: T) => void;
  /** Prefix of the tab and panel ids (aria-controls / aria-labelledby pair them). */
  readonly idPrefix: string;
  readonly label: string;
  /** Shown after the tabs (frame format and size). */
  readonly trailing?: ReactNode;
}

export const tabId = (prefix: string, tab: string) => `${prefix}-tab-${tab}`;
export const panelId = (prefix: string, tab: string) => `${prefix}-panel-${tab}`;

/**
 * WAI-ARIA tabs: one tab stop (the selected tab), ←/→ move and select, Home/End jump to
 * the first/last tab (automatic activation, as DevTools' own tab strips).
 */
export function TabBar<T extends string>(props: TabBarProps<T>): ReactElement {
  const { tabs, labels, selected, onSelect, idPrefix, label, trailing } = props;
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.indexOf(selected);
    let next: number;
    if (e.key === 'ArrowRight') next = (at + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    else return;
    e.preventDefault();
    onSelect(tabs[next]);
    listRef.current?.querySelector<HTMLElement>(`[data-testid="tab-${tabs[next]}"]`)?.focus();
  };

  return (
    <div className="ws-tabs">
      <div role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown} className="ws-tablist">
        {tabs.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={tabId(idPrefix, t)}
            aria-selected={selected === t}
            aria-controls={panelId(idPrefix, t)}
            tabIndex={selected === t ? 0 : -1}
            data-testid={`tab-${t}`}
            onClick={() => onSelect(t)}
          >
            {labels[t]}
          </button>
        ))}
      </div>
      <span className="ws-spacer" />
      {trailing}
    </div>
  );
}
