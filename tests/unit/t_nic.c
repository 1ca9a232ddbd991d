/*
 * t_nic.c: the nic probe against real captures and the fixture boxes.
 */
#include "config.h"

#include "test.h"
#include "nic.h"

int
main(void)
{
	T_TRUE(t_root("empty") != NULL);
	return (t_done());
}
