/*
 * fuzz_smbstatus.c: libFuzzer target of the readers of smbstatus(1)'s
 * session list.  The input is smbstatus's output, read both ways the
 * daemon reads it: as "smbstatus -b --json" (daemon/smbsess.c) and as
 * the text table of "smbstatus -b" (probes/smbstatus.c), into one list
 * reused between the two as the daemon reuses it between polls.  Each
 * session read must then encode as /v1/topology shows it, and is matched
 * against an address as a run's client is.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "encode.h"
#include "smbsess.h"
#include "smbstatus.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check a result, and use its sessions as smbsess.c does. */
static void
fuzz_sessions(int rc, const struct smbstatus *st)
{
	json_t	*j;
	size_t	 i;

	if ((rc != 0 && rc != -1) || st->n > SMBSTATUS_MAX_SESSIONS ||
	    st->n > st->cap)
		abort();
	for (i = 0; i < st->n; i++) {
		if ((j = enc_smb_session(&st->v[i])) == NULL)
			abort();	/* a session the API cannot show */
		json_decref(j);
		(void)smbstatus_same_address(st->v[i].address, "192.0.2.7");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smbstatus	 st;
	const char		*errstr;

	smbstatus_init(&st);
	fuzz_sessions(smbsess_parse_json((const char *)data, size, &st,
	    &errstr), &st);
	fuzz_sessions(smbstatus_parse_text((const char *)data, size, &st,
	    &errstr), &st);
	smbstatus_clear(&st);
	return (0);
}
