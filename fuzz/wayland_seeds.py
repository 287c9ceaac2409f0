#!/usr/bin/env python3
"""Writes the Wayland target's hand-made seeds into fuzz/corpus/wayland/ (docs/fuzzing.md).

	fuzz/wayland_seeds.py [XML_DIR]     (XML_DIR: wayland-protocols' folder, by default
	                                     /usr/share/wayland-protocols; run it in scripts/env)

An input of fuzz/wayland.c is a sequence of steps; writing one by hand means knowing how the
target decodes it. This script models that decoding (the client slots, each client's live
objects in id order, the requests a version has, each argument's bytes) so that a seed can
say what it does: bind wl_compositor, make a toplevel, copy from sandbox A, paste in B. The
seeds give libFuzzer a start deep inside the protocol; run this again when the decoding or
the XML list in fuzz/meson.build changes.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wayland_tables  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

STEP_CONNECT, STEP_DISCONNECT, STEP_REQUEST, STEP_OUTPUT = 0, 1, 2, 8
STEP_POINTER_TO_VIEW, STEP_POINTER_TO, STEP_BUTTON, STEP_KEY, STEP_RAW, STEP_TIME, STEP_CONTROL, \
    STEP_FILES = range(9, 17)
HOST, SANDBOX_A, SANDBOX_B = 0, 1, 2
FD_SHM, FD_SHORT_SHM, FD_PIPE_WRITE, FD_PIPE_READ, FD_SOCKET = range(5)
KEY_A = 4  # index in wayland.c's keycodes: 30, KEY_A
KEY_TAB, KEY_ALT = 1, 11  # 15, KEY_TAB; 56, KEY_LEFTALT
# Indices in wayland.c's output_sizes.
OUTPUT_1X1, OUTPUT_320X200, OUTPUT_800X600, OUTPUT_1920X1080 = range(4)
# wayland_files.h's enum fuzz_file_kind
(FILE_PLAIN, FILE_SYMLINK, FILE_THROUGH_SYMLINK, FILE_DIRECTORY, FILE_FIFO, FILE_CLOSED,
 FILE_PASSWD, FILE_ENVIRON, FILE_DEVICE, FILE_DOTDOT, FILE_ESCAPED, FILE_ESCAPED_DOTDOT,
 FILE_NUL, FILE_LOCALHOST, FILE_WEB, FILE_LONG, FILE_DOCUMENT, FILE_OTHERS_DOCUMENT,
 FILE_RAW) = range(19)


def xml_files(xml_dir):
    meson = open(os.path.join(HERE, "meson.build")).read()
    block = meson[meson.index("wayland_fuzz_xml = ["):meson.index("wayland_tables = custom_target")]
    files = ["/usr/share/wayland/wayland.xml"]
    for path in re.findall(r"'((?:stable|staging|unstable)/[^']+\.xml)'", block):
        if os.path.exists(os.path.join(xml_dir, path)):
            files.append(os.path.join(xml_dir, path))
    for name in re.findall(r"'([a-z0-9-]+\.xml)'", block):
        if name != "wayland.xml":
            files.append(os.path.join(ROOT, "protocols", name))
    return files


def dictionary():
    source = open(os.path.join(HERE, "wayland.c")).read()
    block = source[source.index("dictionary[] = {"):]
    block = block[:block.index("};")]
    return [line.strip().rstrip(",") for line in block.splitlines()[1:] if line.strip()]


class Seed:
    def __init__(self, interfaces):
        self.interfaces = interfaces
        self.names = list(interfaces)
        self.words = dictionary()
        self.bytes = bytearray()
        self.clients = [None] * 4  # per slot: {id: [interface, version, alive]}

    # Steps
    def connect(self, sandbox):
        slot = self.clients.index(None)
        self.bytes += bytes([STEP_CONNECT, sandbox])
        self.clients[slot] = {1: ["wl_display", 1, True], 2: ["wl_registry", 1, True]}
        return slot

    def disconnect(self, slot):
        self.bytes += bytes([STEP_DISCONNECT, slot])
        self.clients[slot] = None

    def pointer_to_view(self, n=0, dx=20, dy=20):
        self.bytes += bytes([STEP_POINTER_TO_VIEW, n, dx, dy])

    def button(self):  # toggles BTN_LEFT
        self.bytes += bytes([STEP_BUTTON, 0])

    def click(self):
        self.button()
        self.button()

    def key(self, index=KEY_A):  # toggles
        self.bytes += bytes([STEP_KEY, index])

    def time_passes(self):
        self.bytes += bytes([STEP_TIME])

    def control(self, command, *words):
        """A cordonctl command: command and words by their index in wayland.c's lists."""
        self.bytes += bytes([STEP_CONTROL, command, len(words)] + list(words))

    def output_add(self, size):
        """Plugs in an output of this size (OUTPUT_*); every client is told of its global."""
        self.bytes += bytes([STEP_OUTPUT, 2 * size])

    def output_remove(self, index):
        """Unplugs the index-th of the outputs the input plugged in that are still there."""
        self.bytes += bytes([STEP_OUTPUT, 2 * index + 1])

    def unplug_desktop(self):
        """Unplugs the desktop's own output: the lid closes (put back at the end)."""
        self.bytes += bytes([STEP_OUTPUT, 0xF0])

    def pointer_to_output(self, index, x=128, y=128):
        """The pointer onto the index-th output cordon has (the desktop's first), x and y in
        256ths of its size: new windows map where the pointer is."""
        self.bytes += bytes([STEP_OUTPUT, 0x80 + index, x, y])

    def files(self, slot, *entries):
        """The uri-list slot's sources write: up to 4 entries, each a FILE_ kind or
        (FILE_RAW, bytes)."""
        assert 1 <= len(entries) <= 4
        self.bytes += bytes([STEP_FILES, slot, len(entries) - 1])
        for entry in entries:
            if isinstance(entry, tuple):
                self.bytes += bytes([entry[0], len(entry[1])]) + entry[1]
            else:
                self.bytes += bytes([entry])

    def raw(self, slot, message, fds=()):
        self.bytes += bytes([STEP_RAW, slot, len(message)]) + message
        self.bytes += bytes([len(fds)] + list(fds))

    # Requests
    def live_index(self, slot, object_id):
        live = [i for i, o in sorted(self.clients[slot].items()) if o[2] and i < 0xFF000000]
        if object_id >= 0xFF000000:
            server = [i for i, o in sorted(self.clients[slot].items()) if o[2] and i >= 0xFF000000]
            return len(live) + server.index(object_id)
        return live.index(object_id)

    def new_id(self, slot, interface, version):
        objects = self.clients[slot]
        new = max(i for i in objects if i < 0xFF000000) + 1
        objects[new] = [interface, version, True]
        return new

    def server_object(self, slot, interface, number=0, version=3):
        """An object cordon makes (a data offer): the number-th of the client's, with the
        version of the object that made it."""
        object_id = 0xFF000000 + number
        self.clients[slot][object_id] = [interface, version, True]
        return object_id

    def request(self, slot, object_id, name, *args):
        interface, version, _ = self.clients[slot][object_id]
        node = self.interfaces[interface]
        requests = [m for m in node if m.tag == "request"]
        eligible = [m for m in requests if int(m.get("since", "1")) <= version]
        message = next(m for m in eligible if m.get("name") == name)
        out = bytearray([STEP_REQUEST, slot, self.live_index(slot, object_id),
                         eligible.index(message)])
        made = None
        values = list(args)
        message_args = [a for a in message if a.tag == "arg"]
        for number, arg in enumerate(message_args):
            kind = arg.get("type")
            following = message_args[number + 1] if number + 1 < len(message_args) else None
            if following is not None and following.get("type") == "new_id" and \
                    not following.get("interface"):
                continue  # wl_registry.bind's name: written with the new id
            if kind == "new_id" and arg.get("interface"):
                made = self.new_id(slot, arg.get("interface"), version)
                continue
            if kind == "new_id":  # wl_registry.bind: (interface name, version)
                bound, bind_version = values.pop(0)
                pick = self.names.index(bound)
                out += bytes([pick >> 8, pick & 0xFF, 0xF0 | bind_version])
                made = self.new_id(slot, bound, bind_version)
                continue
            out += self.encode(slot, arg, values.pop(0))
        self.bytes += out
        if message.get("type") == "destructor":
            self.clients[slot][object_id][2] = False
        return made

    def encode(self, slot, arg, value):
        kind = arg.get("type")
        if kind in ("int", "uint"):
            if value == "serial":  # the last serial the client was sent
                return bytes([0])
            if value == "input-serial":  # that of the last button, key or touch
                return bytes([0x60])
            if 0 <= value < 256 and "serial" not in arg.get("name"):
                return bytes([0, value])
            return bytes([0xE0]) + (value & 0xFFFFFFFF).to_bytes(4, "big")
        if kind == "fixed":
            return bytes([value & 0xFF])
        if kind == "string":
            if value is None:
                return bytes([0xFF])
            if isinstance(value, tuple):  # ("from", slot): the last string that client got
                return bytes([0xE0 + value[1]])
            word = f'"{value}"'
            if word in self.words:
                return bytes([2 * self.words.index(word)])
            return bytes([0xF0, len(value)]) + value.encode()
        if kind == "object":
            if value is None:
                return bytes([7])
            interface = self.clients[slot][value][0]
            same = [i for i, o in sorted(self.clients[slot].items())
                    if o[2] and o[0] == interface]
            return bytes([0, same.index(value)])
        if kind == "array":
            return bytes([len(value)]) + value
        if kind == "fd":
            return bytes([value])
        raise ValueError(kind)


# Scenarios: each a function of a fresh Seed.

def toplevel(seed, slot, draw=True, size=64, height=None):
    """A mapped xdg toplevel with an shm buffer: what every window needs."""
    c = seed.request(slot, 2, "bind", ("wl_compositor", 6))
    shm = seed.request(slot, 2, "bind", ("wl_shm", 2))
    wm = seed.request(slot, 2, "bind", ("xdg_wm_base", 6))
    seat = seed.request(slot, 2, "bind", ("wl_seat", 9))
    surface = seed.request(slot, c, "create_surface")
    xdg = seed.request(slot, wm, "get_xdg_surface", surface)
    top = seed.request(slot, xdg, "get_toplevel")
    seed.request(slot, top, "set_title", "title")
    seed.request(slot, surface, "commit")
    seed.request(slot, xdg, "ack_configure", "serial")
    if draw:
        pool = seed.request(slot, shm, "create_pool", FD_SHM, 65536)
        height = height or size
        buffer = seed.request(slot, pool, "create_buffer", 0, size, height, size * 4, 1)  # XRGB
        seed.request(slot, surface, "attach", buffer, 0, 0)
        seed.request(slot, surface, "damage_buffer", 0, 0, size, height)
        seed.request(slot, surface, "commit")
    return {"surface": surface, "xdg": xdg, "toplevel": top, "seat": seat,
            "compositor": c, "shm": shm, "wm": wm}


def seed_host_toplevel(seed):
    slot = seed.connect(HOST)
    w = toplevel(seed, slot)
    seed.request(slot, w["seat"], "get_pointer")
    seed.request(slot, w["seat"], "get_keyboard")
    seed.pointer_to_view()
    seed.click()
    seed.key()
    seed.key()
    seed.request(slot, w["toplevel"], "set_maximized")
    seed.request(slot, w["toplevel"], "set_fullscreen", None)
    seed.request(slot, w["toplevel"], "set_minimized")


def copy_source(seed, slot, w, mime="text/plain"):
    manager = seed.request(slot, 2, "bind", ("wl_data_device_manager", 3))
    device = seed.request(slot, manager, "get_data_device", w["seat"])
    source = seed.request(slot, manager, "create_data_source")
    seed.request(slot, source, "offer", mime)
    return manager, device, source


def seed_paste_across(seed, consent=True):
    a = seed.connect(SANDBOX_A)
    wa = toplevel(seed, a)
    seed.request(a, wa["seat"], "get_keyboard")
    seed.request(a, wa["seat"], "get_pointer")
    _, _, source = copy_source(seed, a, wa)
    seed.time_passes()
    seed.pointer_to_view(0)
    seed.click()
    seed.key()
    device_a = [i for i, o in seed.clients[a].items() if o[0] == "wl_data_device"][0]
    seed.request(a, device_a, "set_selection", source, "input-serial")
    seed.key()
    b = seed.connect(SANDBOX_B)
    wb = toplevel(seed, b, size=96)
    seed.request(b, wb["seat"], "get_keyboard")
    manager = seed.request(b, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(b, manager, "get_data_device", wb["seat"])
    seed.time_passes()
    if consent:
        seed.pointer_to_view(0)
        seed.click()
        seed.key()
        seed.key()
    offer = seed.server_object(b, "wl_data_offer")
    seed.request(b, offer, "receive", "text/plain", FD_PIPE_WRITE)
    seed.time_passes()
    seed.time_passes()


def seed_paste_without_consent(seed):
    seed_paste_across(seed, consent=False)


def seed_host_copy(seed, consent=True, files=None):
    """The host copies; a sandboxed app reads, after a click in it or without one. With
    files, the host's source offers text/uri-list of those entries, which the app reads."""
    h = seed.connect(HOST)
    wh = toplevel(seed, h)
    seed.request(h, wh["seat"], "get_keyboard")
    _, device, source = copy_source(seed, h, wh, "UTF8_STRING")
    seed.request(h, source, "offer", "text/plain")
    if files:
        # The click's button event is the serial set_selection names.
        seed.request(h, wh["seat"], "get_pointer")
        seed.request(h, source, "offer", "text/uri-list")
        seed.files(h, *files)
    seed.pointer_to_view(0)
    seed.click()
    seed.request(h, device, "set_selection", source, "input-serial")
    b = seed.connect(SANDBOX_B)
    wb = toplevel(seed, b, size=128)
    seed.request(b, wb["seat"], "get_keyboard")
    seed.request(b, wb["seat"], "get_pointer")
    manager = seed.request(b, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(b, manager, "get_data_device", wb["seat"])
    seed.time_passes()
    if consent:
        seed.pointer_to_view(0, 60, 60)
        seed.click()
    offer = seed.server_object(b, "wl_data_offer")
    seed.request(b, offer, "receive", "text/uri-list" if files else "text/plain", FD_PIPE_WRITE)
    seed.time_passes()
    return {"host": h, "reader": b, "reader_window": wb}


def seed_files_drag(seed):
    """The host drags a file, a path through a symlinked folder and a web link onto B: B
    reads nothing before the drop, the file as a document after it."""
    seed_drag_across(seed, side=HOST, files=(FILE_PLAIN, FILE_THROUGH_SYMLINK, FILE_WEB))


def seed_files_host_to_sandbox(seed):
    """The host copies a regular file, a symlink, a folder and a fifo; B pastes after a
    click in it: only the regular file crosses, as a document of B's."""
    seed_host_copy(seed, files=(FILE_PLAIN, FILE_SYMLINK, FILE_DIRECTORY, FILE_FIFO))


def seed_files_host_hostile(seed):
    """A hostile list from the host's side: a path through a symlinked folder, /proc,
    %2e%2e through it, %00, then 1100 entries of one file."""
    seed_host_copy(seed, files=(FILE_THROUGH_SYMLINK, FILE_ENVIRON, FILE_ESCAPED_DOTDOT,
                                FILE_LONG))


def seed_files_host_without_consent(seed):
    seed_host_copy(seed, consent=False, files=(FILE_PLAIN, FILE_ESCAPED))


def copy_file_list(seed, side, size, at, files):
    """A new client of side maps a window of size, sets its sources' file list, and copies
    it after a click at `at` in its window."""
    c = seed.connect(side)
    w = toplevel(seed, c, size=size)
    seed.request(c, w["seat"], "get_keyboard")
    seed.request(c, w["seat"], "get_pointer")
    _, device, source = copy_source(seed, c, w, "text/uri-list")
    seed.files(c, *files)
    seed.time_passes()
    seed.pointer_to_view(0, *at)
    seed.click()
    seed.request(c, device, "set_selection", source, "input-serial")


def paste_file_list_in_new_window(seed, side, size):
    """A new client of side maps a window of size; after a click in it, it reads the
    clipboard's file list."""
    c = seed.connect(side)
    w = toplevel(seed, c, size=size)
    seed.request(c, w["seat"], "get_pointer")
    manager = seed.request(c, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(c, manager, "get_data_device", w["seat"])
    seed.time_passes()
    seed.pointer_to_view(0, 60, 60)
    seed.click()
    offer = seed.server_object(c, "wl_data_offer")
    seed.request(c, offer, "receive", "text/uri-list", FD_PIPE_WRITE)
    seed.time_passes()


def seed_files_sandbox_to_sandbox(seed):
    """A copies a file list (and names host files it likes); B pastes after a click: files
    do not cross between two sandboxes."""
    copy_file_list(seed, SANDBOX_A, 64, (20, 20),
                   (FILE_PLAIN, FILE_PASSWD, (FILE_RAW, b"file:///etc/shadow"), FILE_DOTDOT))
    paste_file_list_in_new_window(seed, SANDBOX_B, 96)


def seed_files_round_trip(seed):
    """The host's file reaches B as a document; B copies it back (with a made-up document
    and a host path beside it) and the host pastes: only B's document comes back, in the
    portal's view on the host."""
    slots = seed_host_copy(seed, files=(FILE_PLAIN, FILE_LOCALHOST))
    h, b, wb = slots["host"], slots["reader"], slots["reader_window"]
    device_b = [i for i, o in seed.clients[b].items() if o[0] == "wl_data_device"][0]
    manager_b = [i for i, o in seed.clients[b].items() if o[0] == "wl_data_device_manager"][0]
    source = seed.request(b, manager_b, "create_data_source")
    seed.request(b, source, "offer", "text/uri-list")
    seed.files(b, FILE_DOCUMENT, FILE_PASSWD, FILE_WEB)
    seed.pointer_to_view(0, 60, 60)
    seed.click()
    seed.request(b, device_b, "set_selection", source, "input-serial")
    # Alt+Tab (focus-next) to the host's window, which B's (centred, larger) covers.
    seed.key(KEY_ALT)
    seed.key(KEY_TAB)
    seed.key(KEY_TAB)
    seed.key(KEY_ALT)
    # The host's offers: of its own selection, then of B's once it has the focus again.
    seed.server_object(h, "wl_data_offer", number=0)
    offer = seed.server_object(h, "wl_data_offer", number=1)
    seed.request(h, offer, "receive", "text/uri-list", FD_PIPE_WRITE)
    seed.time_passes()


def seed_files_document_theft(seed):
    """The host's file reaches B as a document; A copies a list naming B's document (and a
    host path), and a new host window pastes: A does not hold it, nothing crosses."""
    seed_host_copy(seed, files=(FILE_PLAIN,))
    copy_file_list(seed, SANDBOX_A, 112, (56, 56), (FILE_OTHERS_DOCUMENT, FILE_PASSWD))
    paste_file_list_in_new_window(seed, HOST, 120)


def seed_host_paste_same_side(seed):
    """Two host clients: the selection is passed straight through, the reader's fd and all."""
    h = seed.connect(HOST)
    wh = toplevel(seed, h)
    seed.request(h, wh["seat"], "get_keyboard")
    _, device, source = copy_source(seed, h, wh)
    seed.pointer_to_view(0)
    seed.click()
    seed.request(h, device, "set_selection", source, "input-serial")
    r = seed.connect(HOST)
    wr = toplevel(seed, r, size=128)
    seed.request(r, wr["seat"], "get_keyboard")
    manager = seed.request(r, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(r, manager, "get_data_device", wr["seat"])
    seed.pointer_to_view(0, 60, 60)
    seed.click()
    offer = seed.server_object(r, "wl_data_offer", number=1)
    seed.request(r, offer, "receive", "text/plain", FD_PIPE_WRITE)
    seed.time_passes()


def seed_host_copy_without_consent(seed):
    seed_host_copy(seed, consent=False)


def seed_primary_across(seed):
    a = seed.connect(SANDBOX_A)
    wa = toplevel(seed, a)
    seed.request(a, wa["seat"], "get_keyboard")
    manager = seed.request(a, 2, "bind", ("zwp_primary_selection_device_manager_v1", 1))
    device = seed.request(a, manager, "get_device", wa["seat"])
    source = seed.request(a, manager, "create_source")
    seed.request(a, source, "offer", "text/plain")
    seed.time_passes()
    seed.pointer_to_view(0)
    seed.click()
    seed.request(a, device, "set_selection", source, "input-serial")
    h = seed.connect(HOST)
    wh = toplevel(seed, h)
    manager_h = seed.request(h, 2, "bind", ("zwp_primary_selection_device_manager_v1", 1))
    seed.request(h, manager_h, "get_device", wh["seat"])
    seed.pointer_to_view(0)
    seed.click()
    offer = seed.server_object(h, "zwp_primary_selection_offer_v1", version=1)
    seed.request(h, offer, "receive", "text/plain", FD_PIPE_WRITE)


def seed_drag_across(seed, side=SANDBOX_A, files=None):
    """A drags from its wide window onto B's tall one (both centred: B's top stays visible
    when the press raises A), and B reads before and after the drop. With files, the
    dragging side (the host) drags a text/uri-list of those entries."""
    mime = "text/uri-list" if files else "text/plain"
    a = seed.connect(side)
    wa = toplevel(seed, a, size=128, height=32)
    seed.request(a, wa["seat"], "get_pointer")
    _, device, source = copy_source(seed, a, wa, mime)
    if files:
        seed.files(a, *files)
    seed.request(a, source, "set_actions", 1)
    b = seed.connect(SANDBOX_B)
    wb = toplevel(seed, b, size=64, height=128)
    seed.request(b, wb["seat"], "get_pointer")
    manager_b = seed.request(b, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(b, manager_b, "get_data_device", wb["seat"])
    seed.time_passes()
    seed.pointer_to_view(1, 10, 16)  # A's left end, beside B
    seed.button()  # press: A comes on top
    seed.request(a, device, "start_drag", source, wa["surface"], None, "input-serial")
    seed.pointer_to_view(1, 20, 10)  # B's top, above A
    seed.pointer_to_view(1, 22, 12)
    offer = seed.server_object(b, "wl_data_offer")
    seed.request(b, offer, "accept", "serial", mime)
    seed.request(b, offer, "set_actions", 1, 1)
    seed.request(b, offer, "receive", mime, FD_PIPE_WRITE)
    seed.button()  # the drop
    seed.request(b, offer, "receive", mime, FD_PIPE_WRITE)
    seed.request(b, offer, "finish")
    seed.time_passes()


def seed_portal_chooser(seed):
    a = seed.connect(SANDBOX_A)
    wa = toplevel(seed, a)
    portal = seed.request(a, 2, "bind", ("cordon_portal_manager_v1", 5))
    chooser = seed.request(a, portal, "get_file_chooser", 1)  # save
    seed.request(a, chooser, "set_title", "title")
    seed.request(a, chooser, "set_parent", wa["toplevel"])
    seed.request(a, chooser, "add_filter", "Images")
    seed.request(a, chooser, "add_pattern", "*.png")
    seed.request(a, chooser, "set_current_name", "../x")
    seed.request(a, chooser, "submit")
    seed.time_passes()
    seed.key(0)  # Escape
    seed.key(0)


def seed_foreign_activation(seed):
    a = seed.connect(SANDBOX_A)
    wa = toplevel(seed, a)
    exporter = seed.request(a, 2, "bind", ("zxdg_exporter_v2", 1))
    seed.request(a, exporter, "export_toplevel", wa["surface"])
    h = seed.connect(HOST)
    wh = toplevel(seed, h)
    importer = seed.request(h, 2, "bind", ("zxdg_importer_v2", 1))
    imported = seed.request(h, importer, "import_toplevel", ("from", a))
    seed.request(h, imported, "set_parent_of", wh["surface"])
    activation = seed.request(h, 2, "bind", ("xdg_activation_v1", 1))
    token = seed.request(h, activation, "get_activation_token")
    seed.request(h, token, "set_surface", wh["surface"])
    seed.request(h, token, "commit")
    seed.request(a, 2, "bind", ("xdg_activation_v1", 1))
    activation_a = [i for i, o in seed.clients[a].items() if o[0] == "xdg_activation_v1"][0]
    seed.request(a, activation_a, "activate", ("from", h), wa["surface"])


def seed_sandbox_binds_privileged(seed):
    """A sandboxed client binds host-only globals it was not told of: refused."""
    a = seed.connect(SANDBOX_B)
    seed.request(a, 2, "bind", ("wp_security_context_manager_v1", 1))
    b = seed.connect(SANDBOX_A)
    seed.request(b, 2, "bind", ("zwlr_layer_shell_v1", 4))
    h = seed.connect(HOST)
    layer = seed.request(h, 2, "bind", ("zwlr_layer_shell_v1", 4))
    c = seed.request(h, 2, "bind", ("wl_compositor", 6))
    surface = seed.request(h, c, "create_surface")
    seed.request(h, layer, "get_layer_surface", surface, None, 2, "text")


def seed_malformed(seed):
    h = seed.connect(HOST)
    # A header that claims more than it sends, then a short one, with fds.
    seed.raw(h, bytes([1, 0, 0, 0, 0, 0, 0x40, 0]) + b"x" * 8, [FD_SHM, FD_PIPE_READ])
    a = seed.connect(SANDBOX_A)
    seed.raw(a, bytes([2, 0, 0, 0, 0, 0, 4, 0]))
    b = seed.connect(SANDBOX_B)
    seed.request(b, 2, "bind", ("wl_compositor", 6))
    seed.raw(b, bytes([3, 0, 0, 0, 0, 0, 12, 0, 9, 9, 9, 9]), [FD_SOCKET])


def seed_text_input(seed):
    a = seed.connect(SANDBOX_A)
    wa = toplevel(seed, a)
    manager = seed.request(a, 2, "bind", ("zwp_text_input_manager_v3", 1))
    text = seed.request(a, manager, "get_text_input", wa["seat"])
    seed.request(a, text, "enable")
    seed.request(a, text, "set_surrounding_text", "title", 0, 0)
    seed.request(a, text, "commit")
    seed.time_passes()
    seed.pointer_to_view(0)
    seed.click()
    seed.key()
    seed.key()


def popup(seed, slot, w):
    """A popup of window w (toplevel()'s) from a small positioner: (its surface, xdg_surface,
    xdg_popup)."""
    positioner = seed.request(slot, w["wm"], "create_positioner")
    seed.request(slot, positioner, "set_size", 20, 20)
    seed.request(slot, positioner, "set_anchor_rect", 0, 0, 10, 10)
    surface = seed.request(slot, w["compositor"], "create_surface")
    xdg = seed.request(slot, w["wm"], "get_xdg_surface", surface)
    return surface, xdg, seed.request(slot, xdg, "get_popup", w["xdg"], positioner)


def seed_popup_subsurface(seed):
    """A popup from a positioner, a subsurface, a viewport, decorations and the small
    per-surface protocols on one window of a sandboxed app."""
    a = seed.connect(SANDBOX_A)
    w = toplevel(seed, a)
    surface, xdg, menu = popup(seed, a, w)
    seed.request(a, menu, "grab", w["seat"], "serial")
    seed.request(a, surface, "commit")
    seed.request(a, xdg, "ack_configure", "serial")
    seed.request(a, surface, "commit")
    sub = seed.request(a, 2, "bind", ("wl_subcompositor", 1))
    child = seed.request(a, w["compositor"], "create_surface")
    subsurface = seed.request(a, sub, "get_subsurface", child, w["surface"])
    seed.request(a, subsurface, "set_position", 5, 5)
    seed.request(a, subsurface, "place_below", w["surface"])
    viewporter = seed.request(a, 2, "bind", ("wp_viewporter", 1))
    viewport = seed.request(a, viewporter, "get_viewport", w["surface"])
    seed.request(a, viewport, "set_destination", 200, 100)
    idle = seed.request(a, 2, "bind", ("zwp_idle_inhibit_manager_v1", 1))
    seed.request(a, idle, "create_inhibitor", w["surface"])
    seed.request(a, w["surface"], "commit")
    seed.request(a, w["toplevel"], "move", w["seat"], "serial")
    seed.request(a, w["toplevel"], "resize", w["seat"], "serial", 8)
    seed.request(a, w["toplevel"], "show_window_menu", w["seat"], "serial", 1, 1)
    seed.request(a, menu, "destroy")


def seed_pointer_protocols(seed):
    """The pointer as the app's own: constraints, relative motion, cursor shape."""
    a = seed.connect(SANDBOX_B)
    w = toplevel(seed, a)
    pointer = seed.request(a, w["seat"], "get_pointer")
    seed.request(a, w["seat"], "get_keyboard")
    constraints = seed.request(a, 2, "bind", ("zwp_pointer_constraints_v1", 1))
    seed.request(a, constraints, "lock_pointer", w["surface"], pointer, None, 2)
    relative = seed.request(a, 2, "bind", ("zwp_relative_pointer_manager_v1", 1))
    seed.request(a, relative, "get_relative_pointer", pointer)
    shapes = seed.request(a, 2, "bind", ("wp_cursor_shape_manager_v1", 1))
    device = seed.request(a, shapes, "get_pointer", pointer)
    seed.time_passes()
    seed.pointer_to_view(0, 30, 30)
    seed.request(a, device, "set_shape", "serial", 2)
    seed.click()
    seed.bytes += bytes([STEP_POINTER_TO, 200, 200])
    seed.request(a, pointer, "set_cursor", "serial", w["surface"], 0, 0)


def seed_host_tools(seed):
    """What only the host gets: layer shell, session lock, output power and management,
    shortcuts inhibit, data control, image capture, the toplevel list."""
    h = seed.connect(HOST)
    c = seed.request(h, 2, "bind", ("wl_compositor", 6))
    output = seed.request(h, 2, "bind", ("wl_output", 4))
    seat = seed.request(h, 2, "bind", ("wl_seat", 9))
    layer = seed.request(h, 2, "bind", ("zwlr_layer_shell_v1", 4))
    surface = seed.request(h, c, "create_surface")
    layer_surface = seed.request(h, layer, "get_layer_surface", surface, output, 2, "title")
    seed.request(h, layer_surface, "set_size", 100, 50)
    seed.request(h, layer_surface, "set_anchor", 1)
    seed.request(h, layer_surface, "set_keyboard_interactivity", 1)
    seed.request(h, surface, "commit")
    seed.request(h, layer_surface, "ack_configure", "serial")
    control = seed.request(h, 2, "bind", ("ext_data_control_manager_v1", 1))
    control_device = seed.request(h, control, "get_data_device", seat)
    control_source = seed.request(h, control, "create_data_source")
    seed.request(h, control_source, "offer", "text/plain")
    seed.request(h, control_device, "set_selection", control_source)
    power = seed.request(h, 2, "bind", ("zwlr_output_power_manager_v1", 1))
    output_power = seed.request(h, power, "get_output_power", output)
    seed.request(h, output_power, "set_mode", 0)
    seed.request(h, output_power, "set_mode", 1)
    sources = seed.request(h, 2, "bind", ("ext_output_image_capture_source_manager_v1", 1))
    source = seed.request(h, sources, "create_source", output)
    capture = seed.request(h, 2, "bind", ("ext_image_copy_capture_manager_v1", 1))
    session = seed.request(h, capture, "create_session", source, 0)
    seed.request(h, session, "create_frame")
    seed.request(h, 2, "bind", ("ext_foreign_toplevel_list_v1", 1))
    shortcuts = seed.request(h, 2, "bind", ("zwp_keyboard_shortcuts_inhibit_manager_v1", 1))
    seed.request(h, shortcuts, "inhibit_shortcuts", surface, seat)
    lock_manager = seed.request(h, 2, "bind", ("ext_session_lock_manager_v1", 1))
    lock = seed.request(h, lock_manager, "lock")
    lock_surface_base = seed.request(h, c, "create_surface")
    lock_surface = seed.request(h, lock, "get_lock_surface", lock_surface_base, output)
    seed.request(h, lock_surface, "ack_configure", "serial")
    seed.key()
    seed.key()
    seed.request(h, lock, "unlock_and_destroy")
    b = seed.connect(SANDBOX_B)
    wb = toplevel(seed, b)
    manager = seed.request(b, 2, "bind", ("wl_data_device_manager", 3))
    seed.request(b, manager, "get_data_device", wb["seat"])
    offer = seed.server_object(b, "wl_data_offer")
    seed.request(b, offer, "receive", "text/plain", FD_PIPE_WRITE)


def seed_input_method(seed):
    """The host's input method writing into a sandboxed app's text field."""
    h = seed.connect(HOST)
    seat = seed.request(h, 2, "bind", ("wl_seat", 9))
    methods = seed.request(h, 2, "bind", ("zwp_input_method_manager_v2", 1))
    method = seed.request(h, methods, "get_input_method", seat)
    a = seed.connect(SANDBOX_A)
    w = toplevel(seed, a)
    seed.request(a, w["seat"], "get_keyboard")
    manager = seed.request(a, 2, "bind", ("zwp_text_input_manager_v3", 1))
    text = seed.request(a, manager, "get_text_input", w["seat"])
    seed.time_passes()
    seed.pointer_to_view(0)
    seed.click()
    seed.request(a, text, "enable")
    seed.request(a, text, "set_content_type", 0, 0)
    seed.request(a, text, "set_cursor_rectangle", 1, 1, 10, 10)
    seed.request(a, text, "commit")
    seed.request(h, method, "commit_string", "text")
    seed.request(h, method, "delete_surrounding_text", 1, 1)
    seed.request(h, method, "commit", 1)
    seed.request(h, method, "grab_keyboard")
    seed.key()
    seed.key()
    seed.request(a, text, "disable")
    seed.request(a, text, "commit")


def seed_surface_extras(seed):
    """One-colour buffers, opacity, scale, content type, icon, dialog, bell."""
    a = seed.connect(SANDBOX_A)
    w = toplevel(seed, a, draw=False)
    decoration = seed.request(a, 2, "bind", ("zxdg_decoration_manager_v1", 1))
    toplevel_decoration = seed.request(a, decoration, "get_toplevel_decoration", w["toplevel"])
    seed.request(a, toplevel_decoration, "set_mode", 2)
    pixels = seed.request(a, 2, "bind", ("wp_single_pixel_buffer_manager_v1", 1))
    buffer = seed.request(a, pixels, "create_u32_rgba_buffer", 0, 0, 0, 0xFFFFFFFF)
    seed.request(a, w["surface"], "attach", buffer, 0, 0)
    viewporter = seed.request(a, 2, "bind", ("wp_viewporter", 1))
    viewport = seed.request(a, viewporter, "get_viewport", w["surface"])
    seed.request(a, viewport, "set_destination", 64, 64)
    alpha = seed.request(a, 2, "bind", ("wp_alpha_modifier_v1", 1))
    alpha_surface = seed.request(a, alpha, "get_surface", w["surface"])
    seed.request(a, alpha_surface, "set_multiplier", 0x7FFFFFFF)
    scale = seed.request(a, 2, "bind", ("wp_fractional_scale_manager_v1", 1))
    seed.request(a, scale, "get_fractional_scale", w["surface"])
    content = seed.request(a, 2, "bind", ("wp_content_type_manager_v1", 1))
    content_surface = seed.request(a, content, "get_surface_content_type", w["surface"])
    seed.request(a, content_surface, "set_content_type", 2)
    seed.request(a, w["surface"], "commit")
    dialogs = seed.request(a, 2, "bind", ("xdg_wm_dialog_v1", 1))
    seed.request(a, dialogs, "get_xdg_dialog", w["toplevel"])
    bell = seed.request(a, 2, "bind", ("xdg_system_bell_v1", 1))
    seed.request(a, bell, "ring", w["surface"])
    icons = seed.request(a, 2, "bind", ("xdg_toplevel_icon_manager_v1", 1))
    icon = seed.request(a, icons, "create_icon")
    seed.request(a, icon, "set_name", "text")
    seed.request(a, icons, "set_icon", w["toplevel"], icon)
    presentation = seed.request(a, 2, "bind", ("wp_presentation", 2))
    seed.request(a, presentation, "feedback", w["surface"])
    seed.request(a, w["surface"], "frame")
    seed.request(a, w["surface"], "commit")
    seed.time_passes()


def seed_portal_camera_print(seed):
    b = seed.connect(SANDBOX_B)
    w = toplevel(seed, b)
    portal = seed.request(b, 2, "bind", ("cordon_portal_manager_v1", 5))
    photo = seed.request(b, portal, "take_photo")
    seed.request(b, photo, "set_parent", w["toplevel"])
    seed.request(b, photo, "add_mime_type", "image/png")
    seed.request(b, photo, "submit")
    seed.key(0)
    seed.key(0)
    chooser = seed.request(b, portal, "get_file_chooser", 0)
    seed.request(b, chooser, "set_multiple", 1)
    seed.request(b, chooser, "add_filter", "Images")
    seed.request(b, chooser, "add_mime_type", "text/plain")
    seed.request(b, chooser, "submit")
    seed.time_passes()
    seed.pointer_to_view(0, 100, 100)
    seed.click()
    seed.key(3)  # Return
    seed.key(3)


def seed_control(seed):
    """cordonctl's commands while windows of the host and of a sandbox are up."""
    h = seed.connect(HOST)
    toplevel(seed, h)
    a = seed.connect(SANDBOX_A)
    toplevel(seed, a, size=96)
    for command in range(4):  # outputs, windows, clients, transfers
        seed.control(command)
    seed.control(4, 1)  # focus 2
    seed.control(6, 0)  # minimize 1
    seed.control(7, 0)  # restore 1
    seed.control(8, 8, 17, 17)  # pointer move 100 100
    seed.control(8, 10, 14, 11)  # pointer button left click
    seed.control(9, 11, 20)  # key click a
    seed.control(10)  # screenshot
    seed.control(11)  # permissions list
    seed.control(12)
    seed.control(13)
    seed.control(14)
    seed.control(15)  # attention
    seed.key(0)
    seed.key(0)
    seed.control(5, 1)  # close 2


def seed_popup_reposition_early(seed):
    """Regression: wlroots 0.20.2 aborts (assertion `surface->initialized`) when a client
    repositions a popup before its surface's first commit; cordon refuses the request first
    (compositor/request_guard.c)."""
    a = seed.connect(SANDBOX_A)
    c = seed.request(a, 2, "bind", ("wl_compositor", 6))
    wm = seed.request(a, 2, "bind", ("xdg_wm_base", 6))
    positioner = seed.request(a, wm, "create_positioner")
    seed.request(a, positioner, "set_size", 20, 20)
    seed.request(a, positioner, "set_anchor_rect", 0, 0, 10, 10)
    surface = seed.request(a, c, "create_surface")
    xdg = seed.request(a, wm, "get_xdg_surface", surface)
    popup = seed.request(a, xdg, "get_popup", None, positioner)
    seed.request(a, popup, "reposition", positioner, 1)


def seed_popup_grab_twice(seed):
    """Regression: wlroots 0.20.2 puts a popup grabbed twice on the seat's grab list twice;
    destroyed, the popup stays on the list, and the next button press ends the grab through
    freed memory. cordon refuses the second grab (compositor/request_guard.c)."""
    a = seed.connect(SANDBOX_A)
    w = toplevel(seed, a)
    _, _, menu = popup(seed, a, w)
    seed.request(a, menu, "grab", w["seat"], "serial")
    seed.request(a, menu, "grab", w["seat"], "serial")
    seed.request(a, menu, "destroy")
    seed.button()
    seed.button()


def seed_popup_parent_self(seed):
    """Regression: wlroots 0.20.2 lets a surface whose popup was destroyed take a new popup
    with itself as the parent; walking up from it to its toplevel never ends, and cordon
    hung at its first commit. cordon refuses the popup (compositor/request_guard.c)."""
    a = seed.connect(SANDBOX_A)
    w = toplevel(seed, a)
    positioner = seed.request(a, w["wm"], "create_positioner")
    seed.request(a, positioner, "set_size", 20, 20)
    seed.request(a, positioner, "set_anchor_rect", 0, 0, 10, 10)
    surface = seed.request(a, w["compositor"], "create_surface")
    xdg = seed.request(a, w["wm"], "get_xdg_surface", surface)
    menu = seed.request(a, xdg, "get_popup", w["xdg"], positioner)
    seed.request(a, menu, "destroy")
    seed.request(a, xdg, "get_popup", xdg, positioner)
    seed.request(a, surface, "commit")


def seed_output_hotplug(seed):
    """A monitor plugged in while apps run: a sandboxed app maps its window there (where the
    pointer is), binds that wl_output and its xdg_output and goes fullscreen on it, the host
    puts a panel (a layer surface) on it and another on a 1x1 one, then the monitor is
    unplugged under them all and they go on using what they hold."""
    a = seed.connect(SANDBOX_A)
    h = seed.connect(HOST)
    c = seed.request(h, 2, "bind", ("wl_compositor", 6))
    layer = seed.request(h, 2, "bind", ("zwlr_layer_shell_v1", 4))
    seed.output_add(OUTPUT_800X600)
    seed.pointer_to_output(1)
    wa = toplevel(seed, a)
    seed.request(a, wa["seat"], "get_pointer")
    seed.request(a, wa["seat"], "get_keyboard")
    # The newest wl_output global each client was told of: the one just plugged in.
    output_a = seed.request(a, 2, "bind", ("wl_output", 4))
    xdg_outputs = seed.request(a, 2, "bind", ("zxdg_output_manager_v1", 3))
    xdg_output = seed.request(a, xdg_outputs, "get_xdg_output", output_a)
    seed.request(a, wa["toplevel"], "set_fullscreen", output_a)
    seed.request(a, wa["surface"], "commit")
    seed.request(a, wa["xdg"], "ack_configure", "serial")
    seed.request(a, wa["surface"], "commit")
    output_h = seed.request(h, 2, "bind", ("wl_output", 4))
    surface = seed.request(h, c, "create_surface")
    panel = seed.request(h, layer, "get_layer_surface", surface, output_h, 2, "title")
    seed.request(h, panel, "set_size", 100, 30)
    seed.request(h, panel, "set_anchor", 1)
    seed.request(h, panel, "set_exclusive_zone", 30)
    seed.request(h, surface, "commit")
    seed.request(h, panel, "ack_configure", "serial")
    seed.output_add(OUTPUT_1X1)
    seed.pointer_to_output(2)
    tiny = seed.request(h, c, "create_surface")
    tiny_panel = seed.request(h, layer, "get_layer_surface", tiny, None, 3, "title")
    seed.request(h, tiny_panel, "set_size", 10, 10)
    seed.request(h, tiny, "commit")
    seed.request(h, tiny_panel, "ack_configure", "serial")
    seed.pointer_to_view(0)
    seed.time_passes()
    seed.click()
    seed.control(1)  # windows: A's fullscreen on the 800x600 output, right of the desktop's
    seed.output_remove(0)  # the 800x600 one, under the fullscreen window and the panel
    seed.control(1)
    seed.request(a, wa["surface"], "commit")
    seed.request(a, wa["toplevel"], "unset_fullscreen")
    seed.request(a, wa["toplevel"], "set_fullscreen", output_a)
    seed.request(a, xdg_output, "destroy")
    seed.request(a, xdg_outputs, "get_xdg_output", output_a)
    seed.request(a, output_a, "release")
    seed.request(h, panel, "set_size", 200, 30)
    seed.request(h, surface, "commit")
    seed.request(h, output_h, "release")
    seed.output_add(OUTPUT_320X200)
    seed.pointer_to_view(0)
    seed.click()


def seed_output_lock(seed):
    """The session is locked, then monitors come and go: one plugged in and given a lock
    surface, then unplugged; then the desktop's own, so that the lock has no output at all;
    another plugged in before the unlock."""
    h = seed.connect(HOST)
    c = seed.request(h, 2, "bind", ("wl_compositor", 6))
    output = seed.request(h, 2, "bind", ("wl_output", 4))
    seed.request(h, 2, "bind", ("wl_seat", 9))
    a = seed.connect(SANDBOX_A)
    toplevel(seed, a)
    lock_manager = seed.request(h, 2, "bind", ("ext_session_lock_manager_v1", 1))
    lock = seed.request(h, lock_manager, "lock")
    base = seed.request(h, c, "create_surface")
    lock_surface = seed.request(h, lock, "get_lock_surface", base, output)
    seed.request(h, lock_surface, "ack_configure", "serial")
    seed.output_add(OUTPUT_1920X1080)
    added = seed.request(h, 2, "bind", ("wl_output", 4))
    second = seed.request(h, c, "create_surface")
    second_lock = seed.request(h, lock, "get_lock_surface", second, added)
    seed.request(h, second_lock, "ack_configure", "serial")
    seed.output_remove(0)
    seed.request(h, second_lock, "ack_configure", "serial")
    seed.request(h, second, "commit")
    seed.unplug_desktop()
    seed.key()
    seed.key()
    seed.request(h, base, "commit")
    seed.output_add(OUTPUT_320X200)
    seed.request(h, lock, "unlock_and_destroy")
    seed.request(a, 2, "bind", ("wl_output", 4))


SEEDS = {
    "host-toplevel": seed_host_toplevel,
    "paste-across": seed_paste_across,
    "paste-without-consent": seed_paste_without_consent,
    "host-copy": seed_host_copy,
    "host-copy-without-consent": seed_host_copy_without_consent,
    "host-paste-same-side": seed_host_paste_same_side,
    "files-host-to-sandbox": seed_files_host_to_sandbox,
    "files-host-hostile": seed_files_host_hostile,
    "files-host-without-consent": seed_files_host_without_consent,
    "files-sandbox-to-sandbox": seed_files_sandbox_to_sandbox,
    "files-round-trip": seed_files_round_trip,
    "files-document-theft": seed_files_document_theft,
    "files-drag": seed_files_drag,
    "primary-across": seed_primary_across,
    "drag-across": seed_drag_across,
    "portal-chooser": seed_portal_chooser,
    "foreign-activation": seed_foreign_activation,
    "sandbox-binds-privileged": seed_sandbox_binds_privileged,
    "malformed": seed_malformed,
    "text-input": seed_text_input,
    "popup-subsurface": seed_popup_subsurface,
    "pointer-protocols": seed_pointer_protocols,
    "host-tools": seed_host_tools,
    "input-method": seed_input_method,
    "surface-extras": seed_surface_extras,
    "portal-camera-chooser": seed_portal_camera_print,
    "control": seed_control,
    "popup-reposition-early": seed_popup_reposition_early,
    "popup-grab-twice": seed_popup_grab_twice,
    "popup-parent-self": seed_popup_parent_self,
    "output-hotplug": seed_output_hotplug,
    "output-lock": seed_output_lock,
}


def main():
    xml_dir = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wayland-protocols"
    interfaces = wayland_tables.read_interfaces(xml_files(xml_dir))
    out = os.path.join(HERE, "corpus", "wayland")
    os.makedirs(out, exist_ok=True)
    for name, scenario in SEEDS.items():
        seed = Seed(interfaces)
        scenario(seed)
        with open(os.path.join(out, name), "wb") as f:
            f.write(seed.bytes)
        print(f"{name}: {len(seed.bytes)} bytes")


if __name__ == "__main__":
    main()
