/* Charges the mime types a sandboxed app offers on its data sources to its app's budget. */
#ifndef CORDON_COMPOSITOR_OFFER_LIMITS_H
#define CORDON_COMPOSITOR_OFFER_LIMITS_H

struct cordon_server;
struct cordon_offer_limits;

struct cordon_offer_limits *cordon_offer_limits_create(struct cordon_server *server);
void cordon_offer_limits_destroy(struct cordon_offer_limits *limits);

#endif
