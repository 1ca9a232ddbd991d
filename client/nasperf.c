/* nasperf: placeholder until the client lands. */
#include "config.h"
int main(void);
int
main(void)
{
	return (0);
}
