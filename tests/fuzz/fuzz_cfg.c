/*
 * fuzz_cfg.c: libFuzzer target of nasperfd's configuration parser.  The
 * input is a nasperfd.yaml; cfg_parse() reads it through libyaml, as a
 * start or a reload does with the file, and must answer a config or a
 * cause, and leak neither.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "cfg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg	*c;
	char		*cause;

	c = cfg_parse("fuzz.yaml", (const char *)data, size, &cause);
	if ((c == NULL) == (cause == NULL))
		abort();	/* exactly one of the two */
	cfg_free(c);
	free(cause);
	return (0);
}
