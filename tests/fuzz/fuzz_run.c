/*
 * fuzz_run.c: libFuzzer target of a run's figures and its saved file.  The
 * input is JSON: as a request body it goes through run_parse(), then, when
 * taken, into a new run (run_admit, run_apply, run_place as a recorded one
 * would be) and into an open run's end; as a saved run object through
 * run_load(); as a saved report through run_judged_load().  Whatever run
 * comes of it must survive run_json() and run_load() unchanged: a run is
 * saved and read back with nothing lost.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "run.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* r's JSON, read back, gives the same JSON. */
static void
fuzz_round_trip(const struct run_rec *r)
{
	struct run_rec		 back;
	struct verdict_run	 vr;
	json_t			*a, *b;
	char			 id[32];

	if ((a = run_json(r)) == NULL)
		return;
	if (run_load(a, &back) == -1)
		abort();
	if ((b = run_json(&back)) != NULL && !json_equal(a, b))
		abort();
	run_view(&back, &vr, id, sizeof id);
	(void)run_same_size(r, &vr);
	json_decref(a);
	json_decref(b);
}

/* The input as a request body: opening a run, then ending one. */
static void
fuzz_body(const json_t *body)
{
	struct run_figures	 f;
	struct run_rec		 r;
	char			 msg[256];

	if (run_parse(body, &f, msg, sizeof msg) == -1) {
		if (memchr(msg, '\0', sizeof msg) == NULL || msg[0] == '\0')
			abort();	/* a refusal says why */
		return;
	}
	memset(&r, 0, sizeof r);
	r.id = 1;
	strcpy(r.client_addr, "127.0.0.1");
	if (run_admit(&r, &f, 1, r.client_addr, msg, sizeof msg) == 0) {
		run_apply(&r, &f);
		if (f.given & (RUN_START | RUN_END))
			(void)run_place(&r, &f, 2e9, msg, sizeof msg);
		else
			r.start = 1.7e9;
		fuzz_round_trip(&r);
	}
	/* The same figures ending an open run that named its process. */
	memset(&r, 0, sizeof r);
	r.id = 2;
	r.noticed = 1;
	r.start = 1.7e9;
	r.f.given = RUN_PID | RUN_PROTOCOL;
	r.f.pid = 1;
	strcpy(r.f.protocol, "smb3");
	if (run_admit(&r, &f, 0, NULL, msg, sizeof msg) == 0) {
		run_apply(&r, &f);
		r.end = r.start + 1;
		r.ended = 1;
		run_set_dialect(&r, "SMB2_10");
		fuzz_round_trip(&r);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_rec		 r;
	struct run_judged	 j;
	json_t			*o;

	if ((o = json_loadb((const char *)data, size, 0, NULL)) == NULL)
		return (0);
	if (json_is_object(o))
		fuzz_body(o);
	/* As a saved run, once read it reads back the same. */
	if (run_load(o, &r) == 0)
		fuzz_round_trip(&r);
	run_judged_load(o, &j);
	json_decref(o);
	return (0);
}
