/*
 * enc_host.h: the box's identity, CPU and NICs as JSON for /v1/topology.
 *
 * Every json_t returned is a new reference the caller owns (json_decref);
 * a NULL argument, or a part that was not available, encodes as JSON null.
 */
#ifndef ENC_HOST_H
#define ENC_HOST_H

#include <jansson.h>

struct identity;
struct cpuinfo;
struct nic_list;

/* The NAS identity: vendor, model, os, firmware, build, kernel, arch… */
json_t	*enc_identity(const struct identity *);
/* The CPU: model, soc, logical_cpus, mhz, flags, aes. */
json_t	*enc_cpuinfo(const struct cpuinfo *);
/* The interfaces as an array, bonds with their members and capacity. */
json_t	*enc_nics(const struct nic_list *);

#endif /* ENC_HOST_H */
