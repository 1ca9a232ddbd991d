/*
 * fuzz_importers.c: libFuzzer target of the client's readers of benchmark
 * tools' output (client/importers.c).  The input is a result file or a
 * command's output: it goes to the detector nasperf run --import uses,
 * then to each reader, as nasperf run -- CMD tries fio's and dd's on what
 * the command printed.  The input is not NUL-terminated: the readers take
 * a length.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "importers.h"

#define FUZZ_MAX_RESULTS	64	/* as nasperf run --import */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct importers_result	 res[FUZZ_MAX_RESULTS];
	const char			*text = (const char *)data, *errstr;
	size_t				 n;

	if (importers_detect(text, size, res, FUZZ_MAX_RESULTS, &n,
	    &errstr) == 0 && (n == 0 || n > FUZZ_MAX_RESULTS))
		abort();
	if (importers_cdm(text, size, res, FUZZ_MAX_RESULTS, &n,
	    &errstr) == 0 && n > FUZZ_MAX_RESULTS)
		abort();
	(void)importers_fio_json(text, size, res, &errstr);
	(void)importers_dd(text, size, res, &errstr);
	return (0);
}
