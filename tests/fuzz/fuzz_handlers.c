/*
 * fuzz_handlers.c: the handlers the route table points to, for the
 * libFuzzer targets that link routes.c without the rest of the daemon.
 * None is ever called.
 */
#include "config.h"

#include <stdlib.h>

#include "api_box.h"
#include "api_cache.h"
#include "api_disktest.h"
#include "api_runs.h"
#include "np.h"

#define FUZZ_HANDLER(name)						\
void									\
name(NP_UNUSED struct daemon *d, NP_UNUSED struct evhttp_request *req)	\
{									\
	abort();							\
}
FUZZ_HANDLER(api_healthz)
FUZZ_HANDLER(api_info)
FUZZ_HANDLER(api_topology)
FUZZ_HANDLER(api_counters)
FUZZ_HANDLER(api_metrics)
FUZZ_HANDLER(api_samples)
FUZZ_HANDLER(api_time)
FUZZ_HANDLER(api_runs_verdict)
FUZZ_HANDLER(api_runs)
FUZZ_HANDLER(api_runs_item)
FUZZ_HANDLER(api_transfers)
FUZZ_HANDLER(api_transfers_item)
FUZZ_HANDLER(api_disktests)
FUZZ_HANDLER(api_disktest_item)
FUZZ_HANDLER(api_cache_drop)
FUZZ_HANDLER(api_baseline)
