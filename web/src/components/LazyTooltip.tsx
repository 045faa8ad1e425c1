import type { TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
} from 'react';
import { chunkLoader } from '../lib/chunkLoader.js';

/*
 * MUI's Tooltip, loaded the first time a reader points at, presses or tabs to what it
 * describes. With the positioning engine it brings (Popper) it was a tenth of the image page's
 * first-load JavaScript (goal 8), for a label nobody sees before hovering.
 *
 * The Tooltip does not wrap the element it describes: swapping a plain button for a wrapped one
 * would mount a new button under the pointer or the focus, and lose the click or the focus
 * that asked for the label. It sits beside it, anchored to it, opened and closed from here
 * with MUI's own delays (100 ms for a mouse, 700 ms for a long press, at once for the keyboard).
 */

type Tooltip = ComponentType<TooltipProps>;
// A failed load is not kept (offline, no label came again until a reload): the next pointing,
// press or Tab asks once more (chunkLoader), and never a render.
const tooltipChunk = chunkLoader(() => import('@mui/material/Tooltip'));

const MOUSE_DELAY = 100;
const TOUCH_DELAY = 700;
/** How long a label opened by a long press stays after the finger lifts. */
const TOUCH_LINGER = 1500;

interface TriggerProps {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}

export function LazyTooltip({
  title,
  placement = 'bottom',
  children,
}: {
  title: string;
  /** Where the label opens: MUI's 'bottom' unless it would cover something to use there. */
  placement?: TooltipProps['placement'];
  children: ReactElement<TriggerProps>;
}) {
  const [Tooltip, setTooltip] = useState<Tooltip | undefined>(() => tooltipChunk.loaded()?.default);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const later = (action: () => void, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(action, delay);
  };
  const show = (element: HTMLElement, delay: number) => {
    setAnchor(element);
    if (Tooltip === undefined) {
      tooltipChunk.load().then(
        (module) => {
          setTooltip(() => module.default);
        },
        // Offline: the label stays unsaid, the control works without it, and the next time it
        // is pointed at or reached asks again.
        () => undefined,
      );
    }
    later(() => setOpen(true), delay);
  };
  const hide = (delay = 0) => {
    later(() => setOpen(false), delay);
  };

  const trigger = cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'mouse') show(event.currentTarget, MOUSE_DELAY);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'mouse') hide();
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'touch') show(event.currentTarget, TOUCH_DELAY);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'touch') hide(open ? TOUCH_LINGER : 0);
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      // As MUI's: the keyboard's focus opens it, a click's does not.
      if (event.currentTarget.matches(':focus-visible')) show(event.currentTarget, 0);
    },
    onBlur: () => {
      hide();
    },
  });
  return (
    <>
      {trigger}
      {Tooltip !== undefined && anchor !== null && (
        <Tooltip
          title={title}
          arrow
          open={open}
          placement={placement}
          slotProps={{ popper: { anchorEl: anchor } }}
        >
          <span hidden />
        </Tooltip>
      )}
    </>
  );
}
