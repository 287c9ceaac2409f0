#!/usr/bin/env python3
# Two GTK 3 windows over X11 (GDK_BACKEND=x11) in one process, for a drag between them: a
# source that offers --text as text/plain, and a target that prints "dropped: TEXT" when
# something is dropped on it ("drag-over" when a drag first moves over it, "drag-begin" when
# the source starts one). Both open where the compositor puts them (over each other): a
# press with the middle button on the target starts a window move (_NET_WM_MOVERESIZE, as
# a title bar does), so that the user can put it beside the source. Prints "shown" once
# both are mapped, "move-requested" once it asked for the move.
import argparse
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--text", required=True)
    args = parser.parse_args()
    targets = [Gtk.TargetEntry.new("text/plain", 0, 0)]

    source = Gtk.Window(title="drag-source")
    source.set_default_size(200, 150)
    source_box = Gtk.EventBox()
    source_box.add(Gtk.Label(label="drag me"))
    source_box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, targets, Gdk.DragAction.COPY)
    source_box.connect(
        "drag-data-get",
        lambda w, ctx, data, info, time: data.set(
            data.get_target(), 8, args.text.encode()))
    source_box.connect("drag-begin", lambda w, ctx: print("drag-begin", flush=True))
    source.add(source_box)

    target = Gtk.Window(title="drop-target")
    target.set_default_size(200, 150)
    target_box = Gtk.EventBox()
    target_box.add(Gtk.Label(label="drop here"))
    target_box.drag_dest_set(Gtk.DestDefaults.ALL, targets, Gdk.DragAction.COPY)
    def on_press(widget, event):
        if event.button == 2:
            target.begin_move_drag(event.button, int(event.x_root), int(event.y_root), event.time)
            target.get_display().flush()
            print("move-requested", flush=True)
        return False

    target_box.connect("button-press-event", on_press)
    over = []

    def on_motion(widget, ctx, x, y, time):
        if not over:
            over.append(True)
            print("drag-over", flush=True)
        return False

    target_box.connect("drag-motion", on_motion)
    target_box.connect("drag-leave", lambda w, ctx, time: over.clear())
    target_box.connect(
        "drag-data-received",
        lambda w, ctx, x, y, data, info, time: print(
            "dropped: " + data.get_data().decode(), flush=True))
    target.add(target_box)

    for window in (source, target):
        window.connect("destroy", Gtk.main_quit)
        window.show_all()
    print("shown", flush=True)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
