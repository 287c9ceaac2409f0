# Shared by the install tests: meson install of the build tree into the test's DESTDIR.
: "${CORDON_BUILD_ROOT:?CORDON_BUILD_ROOT must name the build tree (run the tests with meson test)}"
: "${CORDON_INSTALL_BINDIR:?}" "${CORDON_INSTALL_DATADIR:?}" "${CORDON_INSTALL_MANDIR:?}"

# The pages meson installs, as SECTION/NAME.
MAN_PAGES=(man1/cordon.1 man1/cordonctl.1 man1/cordon-run.1 man1/cordon-portal.1
	man1/cordon-app.1 man1/cordon-bundle.1 man5/cordon.ini.5 man5/cordon-policy.ini.5)

# install_into_destdir: sets DEST, the DESTDIR everything went into; a path meson names is
# "$DEST$PATH" there.
install_into_destdir() {
	cordon_test_init
	DEST="$TEST_TMP/dest"
	meson install -C "$CORDON_BUILD_ROOT" --no-rebuild --quiet --destdir "$DEST" \
		>"$TEST_TMP/install.log" 2>&1 || fail "meson install: $(tail -5 "$TEST_TMP/install.log")"
}

# desktop_key KEY FILE: the value of KEY in FILE's [Desktop Entry] group.
desktop_key() {
	awk -v key="$1" '
		/^\[/ { group = $0; next }
		group == "[Desktop Entry]" && index($0, key "=") == 1 {
			print substr($0, length(key) + 2); exit
		}' "$2"
}

# man_text PAGE: the page's roff source with the font changes and escapes taken out, so
# that an option reads as it is typed.
man_text() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\&//g' "$1"
}
