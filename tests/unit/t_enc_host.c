/*
 * t_enc_host.c: identity, CPU and NIC JSON from the fixture boxes.
 */
#include "config.h"

#include <jansson.h>

#include "test.h"
#include "identity.h"
#include "cpuinfo.h"
#include "nic.h"
#include "enc_host.h"

int
main(void)
{
	T_TRUE(t_root("empty") != NULL);
	return (t_done());
}
