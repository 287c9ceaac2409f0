/*
 * Nothing to run: portals/meson.build links this with the whole portals library and not the
 * compositor, so that the build fails when a portal file calls into compositor/ directly
 * rather than through the host interface (include/portals/host.h).
 */
int main(void) {
	return 0;
}
