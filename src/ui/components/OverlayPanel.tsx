// A dialog over the page, as the compare view, sweeps, seeds side by side and reasoning across
// inputs draw it: a backdrop, a head with the title, any controls of the head and a close
// button, and Escape closes it. `embedded` draws it in place (the tour's compare step): no
// backdrop, and Escape is left to the page.
import { type ReactNode, useEffect, useRef } from 'react';

/** Close handlers of the open overlays, the last opened last: Escape closes only the top one. */
const openOverlays: { close: () => void }[] = [];

function onEscape(e: KeyboardEvent): void {
  if (e.key !== 'Escape') return;
  openOverlays.at(-1)?.close();
}

/**
 * While `active`, Escape calls `onClose` — unless an overlay opened later is still open (an
 * explanation over a dialog closes first).
 */
export function useEscapeToClose(active: boolean, onClose: () => void): void {
  const latest = useRef(onClose);
  latest.current = onClose;
  useEffect(() => {
    if (!active) return;
    const entry = { close: () => latest.current() };
    openOverlays.push(entry);
    if (openOverlays.length === 1) window.addEventListener('keydown', onEscape);
    return () => {
      openOverlays.splice(openOverlays.indexOf(entry), 1);
      if (openOverlays.length === 0) window.removeEventListener('keydown', onEscape);
    };
  }, [active]);
}

/** The open dialogs that hold the keyboard, the last opened last. */
const focusStack: HTMLElement[] = [];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * While `active`, keeps the keyboard inside the dialog `ref`: focus moves into it when it opens,
 * Tab and Shift+Tab wrap around its controls instead of walking the page under the backdrop, and
 * focus goes back to what had it (the button that opened it) when it closes.
 */
export function useDialogFocus(ref: React.RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!active || !dialog) return;
    focusStack.push(dialog);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const controls = () =>
      [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
    if (!dialog.contains(document.activeElement)) (controls()[0] ?? dialog).focus();
    const onKey = (e: KeyboardEvent) => {
      // Only the dialog on top keeps the keyboard (an explanation over a dialog).
      if (e.key !== 'Tab' || focusStack.at(-1) !== dialog) return;
      const list = controls();
      if (list.length === 0) {
        e.preventDefault();
        return;
      }
      const first = list[0] as HTMLElement;
      const last = list[list.length - 1] as HTMLElement;
      const inside = dialog.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      focusStack.splice(focusStack.indexOf(dialog), 1);
      document.removeEventListener('keydown', onKey);
      if (opener && document.contains(opener)) opener.focus();
    };
  }, [ref, active]);
}

export interface OverlayPanelProps {
  /** The dialog's own class beside `overlay-panel`. */
  className: string;
  /** Its accessible name. */
  label: string;
  testId: string;
  title: ReactNode;
  onClose: () => void;
  closeTestId: string;
  closeLabel?: string;
  /** Controls in the head before the close button. */
  head?: ReactNode;
  embedded?: boolean;
  /** data-* attributes for outside checks, without the prefix. */
  data?: Record<string, string | number>;
  children: ReactNode;
}

export function OverlayPanel({
  className,
  label,
  testId,
  title,
  onClose,
  closeTestId,
  closeLabel = 'Close',
  head,
  embedded = false,
  data = {},
  children,
}: OverlayPanelProps) {
  useEscapeToClose(!embedded, onClose);
  const dialog = useRef<HTMLElement>(null);
  useDialogFocus(dialog, !embedded);
  const attrs = Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v]));
  return (
    <div className={embedded ? 'compare-embedded' : 'overlay-backdrop'} role="presentation">
      <section
        ref={dialog}
        tabIndex={-1}
        className={`overlay-panel ${className}`}
        role="dialog"
        aria-modal={embedded ? undefined : true}
        aria-label={label}
        data-testid={testId}
        {...attrs}
      >
        <div className="overlay-head">
          <h2>{title}</h2>
          {head}
          <button type="button" className="small" data-testid={closeTestId} onClick={onClose}>
            {closeLabel}
          </button>
        </div>
        {children}
      </section>
    </div>
  );
}

/** A button that opens the file picker for one JSON file and hands the file on. */
export function JsonFileButton({
  label,
  buttonTestId,
  inputTestId,
  onFile,
}: {
  label: string;
  buttonTestId: string;
  inputTestId: string;
  onFile: (f: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="small"
        data-testid={buttonTestId}
        onClick={() => input.current?.click()}
      >
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid={inputTestId}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) onFile(f);
        }}
      />
    </>
  );
}
