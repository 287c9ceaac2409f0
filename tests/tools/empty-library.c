/*
 * A shared library without the functions of any other: tests/portal/lazy-libraries.sh
 * puts it in place of libcups.so.2 and libfcft.so.4 to check that a library cordon
 * loads on first use and finds wanting fails one request, not cordon.
 */
const char *cordon_test_empty_library(void);
const char *cordon_test_empty_library(void) {
	return "neither libcups nor fcft";
}
