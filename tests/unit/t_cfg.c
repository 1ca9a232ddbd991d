#include "config.h"
#include "cfg.h"
#include "test.h"
int
main(void)
{
	struct cfg *c = cfg_default();
	T_TRUE(c != NULL);
	cfg_free(c);
	return (t_done());
}
