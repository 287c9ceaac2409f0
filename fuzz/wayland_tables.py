#!/usr/bin/env python3
"""The Wayland fuzzer's protocol tables (fuzz/wayland_protocol.h), made from protocol XML.

	wayland_tables.py OUTPUT.c XML...    the C tables, at build time (fuzz/meson.build)
	wayland_tables.py --dict XML...      libFuzzer dictionary lines (fuzz/dict/wayland.dict)

Every interface of every file, sorted by name so that an input names the same interface
whatever order the files come in; each message with its arguments' types, whether they may be
null, whether they carry a serial, and the interface an object or new id argument must have
(across files: cursor-shape names tablet-v2's tool; -1 when no file given here defines it).
"""
import sys
import xml.etree.ElementTree as ET

WIRE_TYPES = {
    "int": "i",
    "uint": "u",
    "fixed": "f",
    "string": "s",
    "object": "o",
    "new_id": "n",
    "array": "a",
    "fd": "h",
}


def read_interfaces(paths):
    interfaces = {}
    for path in paths:
        for node in ET.parse(path).getroot().iter("interface"):
            interfaces[node.get("name")] = node
    return dict(sorted(interfaces.items()))


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def messages(node, tag):
    return [m for m in node if m.tag == tag]


def write_tables(out, interfaces):
    index = {name: i for i, name in enumerate(interfaces)}
    out.write("/* Made by fuzz/wayland_tables.py from the protocol XML: do not edit. */\n")
    out.write("#include <stddef.h>\n\n#include \"wayland_protocol.h\"\n\n")
    for name, node in interfaces.items():
        for tag in ("request", "event"):
            for number, message in enumerate(messages(node, tag)):
                args = [a for a in message if a.tag == "arg"]
                if not args:
                    continue
                out.write(f"static const struct fuzz_wl_arg {name}_{tag}_{number}[] = {{\n")
                for arg in args:
                    target = arg.get("interface")
                    out.write(
                        "\t{'%s', %s, %s, %d},\n"
                        % (
                            WIRE_TYPES[arg.get("type")],
                            "true" if arg.get("allow-null") == "true" else "false",
                            "true" if "serial" in arg.get("name") else "false",
                            index.get(target, -1) if target else -1,
                        )
                    )
                out.write("};\n")
        for tag in ("request", "event"):
            out.write(f"static const struct fuzz_wl_message {name}_{tag}s[] = {{\n")
            for number, message in enumerate(messages(node, tag)):
                args = [a for a in message if a.tag == "arg"]
                out.write(
                    "\t{%s, %s, %s, %d, %s},\n"
                    % (
                        c_string(message.get("name")),
                        message.get("since", "1"),
                        "true" if message.get("type") == "destructor" else "false",
                        len(args),
                        f"{name}_{tag}_{number}" if args else "NULL",
                    )
                )
            out.write("\t{NULL, 0, false, 0, NULL},\n};\n")
    out.write("\nconst struct fuzz_wl_interface fuzz_wl_interfaces[] = {\n")
    for name, node in interfaces.items():
        out.write(
            "\t{%s, %s, %d, %d, %s_requests, %s_events},\n"
            % (
                c_string(name),
                node.get("version", "1"),
                len(messages(node, "request")),
                len(messages(node, "event")),
                name,
                name,
            )
        )
    out.write("};\n")
    out.write(f"const int fuzz_wl_interface_count = {len(interfaces)};\n")


def write_dict(interfaces):
    words = set()
    for name, node in interfaces.items():
        words.add(name)
        for entry in node.iter("entry"):
            words.add(entry.get("name"))
    for word in sorted(words):
        print(f'"{word}"')


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "--dict":
        write_dict(read_interfaces(sys.argv[2:]))
        return
    with open(sys.argv[1], "w") as out:
        write_tables(out, read_interfaces(sys.argv[2:]))


if __name__ == "__main__":
    main()
