/* The on-screen notice that says which app the paste-across shortcut gave the clipboard to. */
#ifndef CORDON_COMPOSITOR_MEDIATION_NOTICE_H
#define CORDON_COMPOSITOR_MEDIATION_NOTICE_H

struct cordon_server;
struct cordon_mediation_notice;

struct cordon_mediation_notice *cordon_mediation_notice_create(struct cordon_server *server);
void cordon_mediation_notice_destroy(struct cordon_mediation_notice *notice);

/*
 * Shows a banner across the top of every output for a few seconds and logs
 * the receiving app. cordon has no font stack, so the app's name is in the
 * log (and `cordonctl transfers`), not drawn; the banner shows that it happened.
 */
void cordon_mediation_notice_show(struct cordon_mediation_notice *notice, const char *app_name);

#endif
