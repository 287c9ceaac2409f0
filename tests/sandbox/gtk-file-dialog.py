#!/usr/bin/python3
# An ordinary GTK4 app, unmodified for cordon: it opens a file with GTK's own file dialog
# (Gtk.FileDialog where GTK has it, 4.10 on; Gtk.FileChooserNative before) and prints what
# it read ("open"), or saves a file the same way ("save TEXT"). In a sandbox GTK sends both through the portal
# (it finds /.flatpak-info); nothing here names a portal. Prints "opened PATH", "content
# LINE", "saved PATH" or "cancelled"/"error ...".
import os
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

mode = sys.argv[1]
save_text = sys.argv[2] if len(sys.argv) > 2 else "saved by a GTK app"
app = Gtk.Application(application_id=os.environ.get("CORDON_APP_ID"),
                      flags=Gio.ApplicationFlags.NON_UNIQUE)
state = {}


def say(line):
    print(line, flush=True)


def opened(file):
    if file is None:
        say("cancelled")
        app.quit()
        return
    say("opened " + file.get_path())
    with open(file.get_path()) as f:
        say("content " + f.read().strip())
    app.quit()


def saved(file):
    if file is None:
        say("cancelled")
    else:
        with open(file.get_path(), "w") as f:
            f.write(save_text + "\n")
        say("saved " + file.get_path())
    app.quit()


def choose(action, done):
    window = state["window"]
    if hasattr(Gtk, "FileDialog"):
        dialog = Gtk.FileDialog(title="cordon test")
        if action == "save":
            dialog.set_initial_name("from-gtk.txt")

        def finish(dialog, result):
            try:
                done((dialog.open_finish if action == "open" else dialog.save_finish)(result))
            except GLib.Error as e:
                say("error " + e.message) if not e.matches(
                    Gtk.DialogError.quark(), Gtk.DialogError.DISMISSED) else None
                done(None)

        (dialog.open if action == "open" else dialog.save)(window, None, finish)
        return
    native = Gtk.FileChooserNative.new(
        "cordon test", window,
        Gtk.FileChooserAction.OPEN if action == "open" else Gtk.FileChooserAction.SAVE,
        None, None)
    if action == "save":
        native.set_current_name("from-gtk.txt")

    def response(native, code):
        done(native.get_file() if code == Gtk.ResponseType.ACCEPT else None)

    native.connect("response", response)
    state["native"] = native
    native.show()


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="cordon GTK test")
    window.present()
    state["window"] = window
    if mode == "open":
        choose("open", opened)
    else:
        choose("save", saved)


app.connect("activate", activate)
sys.exit(app.run([sys.argv[0]]))
