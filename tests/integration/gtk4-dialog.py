#!/usr/bin/env python3
"""A GTK 4 window and a modal dialog over it, for tests/integration/xdg-dialog.sh.

GTK 4 marks a modal transient window through xdg-dialog-v1, names its icon through
xdg-toplevel-icon and rings through xdg-system-bell when the compositor offers them.
It prints "parent-mapped PID"; on SIGUSR1, as on a user's click, it opens the dialog
and prints "dialog-mapped" (after which it rings the bell once), then "dialog-unmapped"
when it is gone. It quits when the parent is closed.
"""
import os
import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402


def main():
    app = Gtk.Application(
        application_id="org.example.GtkDialog", flags=Gio.ApplicationFlags.NON_UNIQUE
    )

    def dialog_mapped(dialog):
        print("dialog-mapped", flush=True)
        dialog.get_display().beep()

    def open_dialog(parent):
        dialog = Gtk.Window(title="Modal", transient_for=parent, modal=True)
        dialog.set_default_size(240, 120)
        dialog.set_child(Gtk.Label(label="a modal dialog"))
        dialog.connect("map", dialog_mapped)
        dialog.connect("unmap", lambda *_: print("dialog-unmapped", flush=True))
        dialog.present()
        return GLib.SOURCE_CONTINUE

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title="Parent")
        window.set_default_size(700, 500)
        window.set_icon_name("dialog-information")
        window.set_child(Gtk.Label(label="the parent"))
        window.connect("map", lambda *_: print(f"parent-mapped {os.getpid()}", flush=True))
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, open_dialog, window)
        window.present()

    app.connect("activate", activate)
    return app.run([])


if __name__ == "__main__":
    sys.exit(main())
