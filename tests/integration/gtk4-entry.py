#!/usr/bin/env python3
"""A GTK 4 window with one text entry, for the text-input tests (text-input-v3 is GTK's
way to its input method). Prints "mapped" once shown and "text TEXT" whenever the
entry's text changes; quits when the window is closed."""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402


def main():
    app_id = sys.argv[1] if len(sys.argv) > 1 else "org.example.Typing"
    # Without a session bus the application is not registered, and GTK names the window
    # after the program: the program name is the app id then.
    GLib.set_prgname(app_id)
    app = Gtk.Application(application_id=app_id, flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title="GTK 4 entry")
        window.set_default_size(400, 120)
        entry = Gtk.Entry()
        entry.connect("changed", lambda e: print("text " + e.get_text(), flush=True))
        window.set_child(entry)
        window.connect("map", lambda *_: print("mapped", flush=True))
        window.present()
        entry.grab_focus()

    app.connect("activate", activate)
    return app.run([])


if __name__ == "__main__":
    sys.exit(main())
