#!/usr/bin/env python3
# A GTK 3 window drawn over X11 (GDK_BACKEND=x11) for the X11 tests: a text entry on a
# solid colour, and optionally an override-redirect window (a GTK popup, as menus and
# tooltips are) at a given root position. Prints "typed: TEXT" whenever the entry changes.
import argparse
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def rgb(text):
    r, g, b = (int(v) for v in text.split(","))
    return r, g, b


def solid(name, color):
    """A box filled with one colour by CSS (no cairo bindings needed)."""
    box = Gtk.Box()
    box.set_name(name)
    css = Gtk.CssProvider()
    css.load_from_data(("#%s { background-color: rgb(%d,%d,%d); }" % ((name,) + color)).encode())
    box.get_style_context().add_provider(css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    return box


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--title", required=True)
    parser.add_argument("--color", type=rgb, required=True)
    parser.add_argument("--popup", help="X,Y,SIZE,R,G,B: an override-redirect square")
    args = parser.parse_args()

    window = Gtk.Window(title=args.title)
    window.set_default_size(300, 200)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    entry = Gtk.Entry()
    entry.connect("changed", lambda e: print("typed: " + e.get_text(), flush=True))
    box.pack_start(entry, False, False, 0)
    box.pack_start(solid("solid", args.color), True, True, 0)
    window.add(box)
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    entry.grab_focus()

    if args.popup:
        x, y, size, r, g, b = (int(v) for v in args.popup.split(","))
        popup = Gtk.Window(type=Gtk.WindowType.POPUP)
        popup.set_default_size(size, size)
        popup.add(solid("popup", (r, g, b)))
        popup.move(x, y)
        popup.show_all()
    print("shown", flush=True)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
