#!/usr/bin/env python3
# Presses a window's close button the way a window manager does, for the real-window tests
# (Xvfb runs no window manager): sends the X client message WM_PROTOCOLS / WM_DELETE_WINDOW to
# each window id given (hex or decimal, as `xdotool search` prints them). GTK turns it into a
# delete event, Tauri into `WindowEvent::CloseRequested`. Needs python3-xlib (scripts/app-env.sh).
import sys

from Xlib import X, display, protocol


def main(ids):
    d = display.Display()
    protocols = d.intern_atom("WM_PROTOCOLS")
    delete = d.intern_atom("WM_DELETE_WINDOW")
    for raw in ids:
        window = d.create_resource_object("window", int(raw, 0))
        event = protocol.event.ClientMessage(
            window=window, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0])
        )
        window.send_event(event, event_mask=X.NoEventMask)
    d.flush()
    d.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: close-window.py WINDOW_ID...")
    main(sys.argv[1:])
