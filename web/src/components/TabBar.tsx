import { Box, ButtonBase } from '@mui/material';
import { useRef, type KeyboardEvent } from 'react';
import { nextTabIndex } from './tabKeys.js';

export interface TabItem<T extends string> {
  value: T;
  label: string;
}

interface TabBarProps<T extends string> {
  tabs: ReadonlyArray<TabItem<T>>;
  value: T;
  onChange: (value: T) => void;
  /** The tab list's accessible name. */
  label: string;
  /** The tabs' and their panels' ids start with it (tabId, panelId). */
  idPrefix: string;
  /** Tabs share the width equally (phones) instead of sitting at the start. */
  fullWidth?: boolean;
}

/** The id of the tab showing `value`, which its panel names in `aria-labelledby`. */
export const tabId = (idPrefix: string, value: string) => `${idPrefix}-tab-${value}`;
/** The id of the panel the tab for `value` controls (`aria-controls`). */
export const panelId = (idPrefix: string, value: string) => `${idPrefix}-panel-${value}`;

/**
 * A row of tabs after WAI-ARIA's tabs pattern, with manual activation as MUI's Tabs has it:
 * the arrow keys, Home and End move the focus, Enter or Space (a click) selects; only the
 * selected tab is in the Tab order. Built on ButtonBase (its focus ripple and click handling)
 * instead of MUI's Tabs, whose scroll buttons, scrollbar measuring, sliding indicator and
 * roving-focus context were 6.7 KB of brotli in the profile page's first load, the largest
 * public page's (goal 8: at most 150 KB; docs/PERFORMANCE.md, "The profile's tabs").
 */
export function TabBar<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
  fullWidth = false,
}: TabBarProps<T>) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Alt+Left is the browser's Back, Shift+Home a selection: keys with a modifier are not ours.
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.defaultPrevented) return;
    const current = buttons.current.findIndex((button) => button === document.activeElement);
    if (current === -1) return;
    const next = nextTabIndex(current, tabs.length, event.key);
    if (next === null) return;
    event.preventDefault();
    buttons.current[next]?.focus();
  };

  return (
    <Box role="tablist" aria-label={label} onKeyDown={onKeyDown} sx={{ display: 'flex' }}>
      {tabs.map((item, index) => {
        const selected = item.value === value;
        return (
          <ButtonBase
            key={item.value}
            ref={(button: HTMLButtonElement | null) => {
              buttons.current[index] = button;
            }}
            role="tab"
            id={tabId(idPrefix, item.value)}
            aria-selected={selected}
            aria-controls={panelId(idPrefix, item.value)}
            tabIndex={selected ? 0 : -1}
            focusRipple
            onClick={() => {
              if (!selected) onChange(item.value);
            }}
            sx={{
              flex: fullWidth ? '1 1 0' : '0 0 auto',
              minWidth: 90,
              maxWidth: 360,
              minHeight: 48,
              px: 2.5,
              py: 1.5,
              typography: 'button',
              lineHeight: 1.25,
              fontWeight: 700,
              fontSize: '1rem',
              textTransform: 'none',
              color: 'inherit',
              opacity: selected ? 1 : 0.6,
              // The indicator: a bar under the selected tab, over the row's divider line.
              boxShadow: (theme) =>
                selected ? `inset 0 -2px 0 ${theme.palette.secondary.main}` : 'none',
              transition: (theme) => theme.transitions.create(['opacity', 'box-shadow']),
              '&:hover': { opacity: 1 },
            }}
          >
            {item.label}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
