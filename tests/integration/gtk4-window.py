#!/usr/bin/env python3
"""A GTK 4 window with GTK's own (client-side) decorations, for tests/integration/labels-toolkits.sh.

It prints "mapped" once the window is shown and quits when the window is closed.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, Gtk  # noqa: E402


def main():
    app = Gtk.Application(
        application_id="org.example.GtkLabelled", flags=Gio.ApplicationFlags.NON_UNIQUE
    )

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title="GTK 4 window")
        window.set_default_size(420, 300)
        window.set_child(Gtk.Label(label="drawn by GTK"))
        window.connect("map", lambda *_: print("mapped", flush=True))
        window.present()

    app.connect("activate", activate)
    return app.run([])


if __name__ == "__main__":
    sys.exit(main())
