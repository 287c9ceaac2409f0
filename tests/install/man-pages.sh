#!/usr/bin/env bash
# The manual pages cannot drift from the programs: every option each installed program's
# help prints, and every command it lists, is in its page. And man renders every page
# without a warning.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/install/lib.sh"

[[ "${CORDON_MAN_PAGES:-}" == 1 ]] || skip "built without the manual pages (-Dman-pages=disabled, or no scdoc)"
install_into_destdir
bin="$DEST$CORDON_INSTALL_BINDIR"
man="$DEST$CORDON_INSTALL_MANDIR"

# help_of PROGRAM ARGS...: what it prints for ARGS, whichever stream and status.
help_of() {
	"$bin/$1" "${@:2}" 2>&1 || true
}

# The option words of a help text: -x and --long, not the dashes inside words.
options_in() {
	grep -oE -- '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' <<<"$1" | sed 's/^[^-]*//' | sort -u
}

# assert_in_page PAGE WHAT WORD...: each WORD stands in PAGE as a word of its own.
assert_in_page() {
	local page=$1 what=$2 text word
	shift 2
	text=$(man_text "$man/$page")
	for word in "$@"; do
		grep -qE -- "(^|[^A-Za-z0-9_-])$word([^A-Za-z0-9_-]|\$)" <<<"$text" ||
			fail "$page does not document the $what $word"
	done
}

checked=0
# check_options PAGE PROGRAM ARGS...: the options PROGRAM ARGS prints are in PAGE.
check_options() {
	local page=$1 help options
	shift
	help=$(help_of "$@")
	options=$(options_in "$help")
	[[ -n "$options" ]] || fail "$* printed no options: $help"
	# shellcheck disable=SC2086
	assert_in_page "$page" "option of '$*'" $options
	checked=$((checked + $(wc -w <<<"$options")))
}

check_options man1/cordon.1 cordon --help
check_options man1/cordonctl.1 cordonctl --help
check_options man1/cordon-run.1 cordon-run --help
check_options man1/cordon-portal.1 cordon-portal --help
check_options man1/cordon-portal.1 cordon-portal take-photo --help
check_options man1/cordon-portal.1 cordon-portal print
check_options man1/cordon-app.1 cordon-app --help

# Commands: cordonctl's and cordon-app's help list them indented, cordon-portal's and
# cordon-bundle's usage after the program's name.
commands=$(help_of cordonctl --help | sed -n '/^Commands:/,$s/^  \([a-z][a-z0-9-]*\).*/\1/p')
(($(wc -w <<<"$commands") >= 20)) || fail "could not read cordonctl's commands: $commands"
# shellcheck disable=SC2086
assert_in_page man1/cordonctl.1 "cordonctl command" $commands
commands=$(help_of cordon-app --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
(($(wc -w <<<"$commands") >= 8)) || fail "could not read cordon-app's commands: $commands"
# shellcheck disable=SC2086
assert_in_page man1/cordon-app.1 "cordon-app command" $commands
for program in cordon-portal cordon-bundle; do
	commands=$( (help_of $program --help; help_of $program print) |
		grep -oE "$program [a-z][a-z-]*|\| [a-z][a-z-]* " | sed 's/^[^ ]* //; s/ $//' | sort -u)
	(($(wc -w <<<"$commands") >= 5)) || fail "could not read $program's commands: $commands"
	# shellcheck disable=SC2086
	assert_in_page "man1/$program.1" "$program command" $commands
done
echo "every one of $checked options the programs print is in their pages, and every command"

# Rendering: man's own check (groff's warnings), page by page.
command -v man >/dev/null || skip "man is not installed (man-db): the pages' rendering is not checked"
for page in "${MAN_PAGES[@]}"; do
	warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man/$page" 2>&1 >/dev/null) ||
		fail "man could not render $page: $warnings"
	[[ -z "$warnings" ]] || fail "man warns about $page: $warnings"
done
# The check itself: a page with a macro groff does not know must be refused.
printf '.TH BROKEN 1\n.SH NAME\nbroken\n.XQ\n' >"$TEST_TMP/broken.1"
warnings=$(LC_ALL=C.UTF-8 man --warnings -l "$TEST_TMP/broken.1" 2>&1 >/dev/null) || true
[[ -n "$warnings" ]] || fail "man --warnings says nothing about an unknown macro: the check is blind"
echo "man renders all ${#MAN_PAGES[@]} pages without a warning"
