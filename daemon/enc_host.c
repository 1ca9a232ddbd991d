/*
 * enc_host.c: identity, CPU and NICs as JSON.
 */
#include "config.h"

#include <jansson.h>

#include "identity.h"
#include "cpuinfo.h"
#include "nic.h"
#include "enc_host.h"

/* The identity as a JSON object, or null. */
json_t *
enc_identity(NP_UNUSED const struct identity *id)
{
	return (json_null());
}

/* The CPU as a JSON object, or null. */
json_t *
enc_cpuinfo(NP_UNUSED const struct cpuinfo *ci)
{
	return (json_null());
}

/* The NICs as a JSON array, or null. */
json_t *
enc_nics(NP_UNUSED const struct nic_list *l)
{
	return (json_null());
}
