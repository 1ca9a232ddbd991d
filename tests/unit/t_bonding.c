/*
 * t_bonding.c: the bonding probe against real captures and the fixture boxes.
 */
#include "config.h"

#include "test.h"
#include "bonding.h"

int
main(void)
{
	T_TRUE(t_root("empty") != NULL);
	return (t_done());
}
