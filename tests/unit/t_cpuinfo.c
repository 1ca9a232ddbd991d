/*
 * t_cpuinfo.c: the cpuinfo probe against real captures and the fixture boxes.
 */
#include "config.h"

#include "test.h"
#include "cpuinfo.h"

int
main(void)
{
	T_TRUE(t_root("empty") != NULL);
	return (t_done());
}
