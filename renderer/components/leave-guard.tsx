import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { Dialog } from './dialog';

/** What a screen with unsaved work gets from the guard. */
export interface LeaveGuard {
  /** The "Leave without saving?" dialog while a navigation waits on it, else null. */
  readonly dialog: ReactNode;
  /** Runs a navigation the screen itself starts (after a save or a delete) without asking. */
  readonly leave: (go: () => void) => void;
}

/**
 * Keeps unsaved work from being lost by mistake: while `dirty`, leaving the screen through the app
 * (a link, the sidebar, browser Back) asks first, and closing or reloading the tab gets the browser's
 * own warning (the desktop window, the app's own question). Changes of the hash alone (the error
 * summary's links) are not leaving.
 */
export function useLeaveGuard(dirty: boolean): LeaveGuard {
  const dirtyRef = useRef(dirty);
  const bypass = useRef(false);
  // A layout effect, so a flushSync'd save has cleared the guard before the navigation that follows it.
  useLayoutEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && !bypass.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    // In the desktop app, Electron shows no dialog of its own: the main process asks on will-prevent-unload.
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium needs returnValue set to show its dialog.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const leave = useCallback((go: () => void) => {
    bypass.current = true;
    try {
      go();
    } finally {
      bypass.current = false;
    }
  }, []);

  const dialog =
    blocker.state === 'blocked' ? (
      <Dialog
        title="Leave without saving?"
        description="Your changes are not saved. If you leave this page, they are lost."
        onClose={() => blocker.reset()}
        size="small"
        footer={
          <>
            <button type="button" className="btn" onClick={() => blocker.reset()} data-autofocus>
              Stay
            </button>
            <button type="button" className="btn btn-danger" onClick={() => blocker.proceed()}>
              Leave
            </button>
          </>
        }
      >
        {null}
      </Dialog>
    ) : null;
  return { dialog, leave };
}
