#!/usr/bin/python3
# The session-bus probe of cordon-run's tests (docs/sandbox.md "The session bus"): run
# inside a sandbox (as /app/bus-probe.py) it calls what an unmodified app calls, or what a
# hostile one tries, and prints one line per outcome; run on the host it serves fake
# services that record every call they get. Only GLib's own D-Bus code (python3-gi), as
# GTK apps use it.
#
#   serve LOG NAME...        own each NAME, record "hit NAME ARG" in LOG for each Hit(s)
#   call NAME ARG            org.cordon.Test.Hit(ARG) on NAME: "answered ..." / "refused ..."
#   own NAME                 RequestName: "owned NAME" / "refused ..."
#   driver METHOD SIG ARGS   a call to the bus driver (ARGS as JSON): "answered" / "refused"
#   eavesdrop INTERFACE      match rules on others' traffic, then waits for a line on stdin
#                            and reports what it overheard ("overheard ..." / "heard nothing")
#   settings                 the Settings portal's color-scheme: "color-scheme N"
#   open-uri URI             OpenURI: "response N"
#   bench N                  N calls to the portal frontend: "round-trip-us MEAN"
#   notify ID TITLE          the Notification portal: "answered notify ..."
#   open-file                FileChooser.OpenFile: "response N", "uri U", "content LINE"
#   save-file NAME TEXT      FileChooser.SaveFile, then writes TEXT through the document
import json
import sys

from gi.repository import Gio, GLib

TEST_XML = """
<node><interface name="org.cordon.Test">
  <method name="Hit"><arg type="s" direction="in"/><arg type="s" direction="out"/></method>
</interface></node>"""
PORTAL = "org.freedesktop.portal.Desktop"
PORTAL_PATH = "/org/freedesktop/portal/desktop"


def bus():
    return Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(conn, dest, path, iface, method, args, timeout=10000):
    return conn.call_sync(dest, path, iface, method, args, None, 0, timeout, None)


def serve(log, names):
    conn = bus()
    info = Gio.DBusNodeInfo.new_for_xml(TEST_XML).interfaces[0]

    def on_call(conn, sender, path, iface, method, params, invocation):
        with open(log, "a") as f:
            f.write("hit %s %s\n" % (path, params.unpack()[0]))
        invocation.return_value(GLib.Variant("(s)", ("hit",)))

    conn.register_object("/org/cordon/Test", info, on_call, None, None)
    for name in names:
        reply = call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                     "org.freedesktop.DBus", "RequestName", GLib.Variant("(su)", (name, 4)))
        if reply.unpack()[0] != 1:
            sys.exit("cannot own " + name)
    with open(log, "a") as f:
        f.write("serving\n")
    GLib.MainLoop().run()


def report(what, fn):
    try:
        print("answered %s %s" % (what, fn()), flush=True)
    except GLib.Error as e:
        print("refused %s %s" % (what, e.message), flush=True)


def wait_response(conn, handle_path, start):
    """Subscribes to the request's Response before the call (as libportal does)."""
    loop = GLib.MainLoop()
    result = {}

    def on_response(conn, sender, path, iface, signal, params):
        result["code"], result["results"] = params.unpack()
        loop.quit()

    conn.signal_subscribe(None, "org.freedesktop.portal.Request", "Response", handle_path,
                          None, 0, on_response)
    start()
    GLib.timeout_add_seconds(60, loop.quit)
    loop.run()
    return result


def request_path(conn, token):
    sender = conn.get_unique_name()[1:].replace(".", "_")
    return "/org/freedesktop/portal/desktop/request/%s/%s" % (sender, token)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "serve":
        serve(args[0], args[1:])
        return
    conn = bus()
    if cmd == "call":
        report(args[0], lambda: call(conn, args[0], "/org/cordon/Test", "org.cordon.Test",
                                     "Hit", GLib.Variant("(s)", (args[1],)), 5000).unpack()[0])
    elif cmd == "own":
        report("own " + args[0], lambda: call(
            conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "RequestName", GLib.Variant("(su)", (args[0], 4))).unpack()[0])
    elif cmd == "driver":
        iface = "org.freedesktop.DBus.Monitoring" if args[0] == "BecomeMonitor" \
            else "org.freedesktop.DBus"
        value = GLib.Variant(args[1], tuple(json.loads(args[2])))
        report(args[0], lambda: call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                     iface, args[0], value).unpack())
    elif cmd == "eavesdrop":
        heard = []

        def on_message(conn, message, incoming):
            if incoming and message.get_interface() == args[0]:
                heard.append(str(message.get_body()))
                return None  # overheard, not ours to answer
            return message

        conn.add_filter(on_message)
        rules = ["type='method_call',interface='%s'" % args[0],
                 "type='method_call',interface='%s',eavesdrop='true'" % args[0]]
        for rule in rules:
            report("AddMatch " + rule, lambda: call(
                conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "AddMatch", GLib.Variant("(s)", (rule,))).unpack())
        # A monitor may not send, so it is a connection of its own.
        monitor = Gio.DBusConnection.new_for_address_sync(
            Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None),
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        monitor.set_exit_on_close(False)
        monitor.add_filter(on_message)
        report("BecomeMonitor", lambda: call(
            monitor, "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.Monitoring", "BecomeMonitor",
            GLib.Variant("(asu)", (rules[:1], 0))).unpack())
        print("listening", flush=True)
        sys.stdin.readline()
        # The bus keeps each connection's messages in order: anything overheard before the
        # host's call was answered is queued ahead of this reply. A monitor cannot call.
        try:
            call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                 "GetId", None, 3000)
        except GLib.Error:
            pass
        ctx = GLib.MainContext.default()
        while ctx.pending():
            ctx.iteration(False)
        print("overheard " + " ".join(heard) if heard else "heard nothing", flush=True)
    elif cmd == "settings":
        def read():
            value = call(conn, PORTAL, PORTAL_PATH, "org.freedesktop.portal.Settings", "Read",
                         GLib.Variant("(ss)", ("org.freedesktop.appearance", "color-scheme")))
            return value.unpack()[0]
        try:
            print("color-scheme %s" % read(), flush=True)
        except GLib.Error as e:
            print("refused settings " + e.message, flush=True)
    elif cmd == "open-uri":
        token = "cordon%d" % GLib.random_int()
        path = request_path(conn, token)
        result = wait_response(conn, path, lambda: call(
            conn, PORTAL, PORTAL_PATH, "org.freedesktop.portal.OpenURI", "OpenURI",
            GLib.Variant("(ssa{sv})", ("", args[0], {"handle_token": GLib.Variant("s", token)}))))
        print("response %s" % result.get("code"), flush=True)
    elif cmd in ("open-file", "save-file"):
        token = "cordon%d" % GLib.random_int()
        path = request_path(conn, token)
        options = {"handle_token": GLib.Variant("s", token)}
        if cmd == "save-file":
            options["current_name"] = GLib.Variant("s", args[0])
        method = "OpenFile" if cmd == "open-file" else "SaveFile"
        result = wait_response(conn, path, lambda: call(
            conn, PORTAL, PORTAL_PATH, "org.freedesktop.portal.FileChooser", method,
            GLib.Variant("(ssa{sv})", ("", "a file", options))))
        print("response %s" % result.get("code"), flush=True)
        for uri in result.get("results", {}).get("uris", []):
            print("uri " + uri, flush=True)
            local = Gio.File.new_for_uri(uri).get_path()
            if cmd == "open-file":
                with open(local) as f:
                    print("content " + f.read().strip(), flush=True)
            else:
                with open(local, "w") as f:
                    f.write(args[1] + "\n")
                print("wrote " + local, flush=True)
    elif cmd == "bench":
        # N round trips to the portal frontend (a property it answers itself), timed.
        import time
        n = int(args[0])
        get = lambda: call(conn, PORTAL, PORTAL_PATH, "org.freedesktop.DBus.Properties", "Get",
                           GLib.Variant("(ss)", ("org.freedesktop.portal.FileChooser", "version")))
        for _ in range(20):
            get()
        start = time.monotonic()
        for _ in range(n):
            get()
        print("round-trip-us %.1f" % ((time.monotonic() - start) * 1e6 / n), flush=True)
    elif cmd == "notify":
        report("notify", lambda: call(
            conn, PORTAL, PORTAL_PATH, "org.freedesktop.portal.Notification", "AddNotification",
            GLib.Variant("(sa{sv})", (args[0], {"title": GLib.Variant("s", args[1]),
                                                "body": GLib.Variant("s", "from a sandbox")}))))
    else:
        sys.exit("unknown command " + cmd)


main()
