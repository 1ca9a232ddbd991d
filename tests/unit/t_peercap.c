/*
 * t_peercap.c: connections counted per client address, the refusal past
 * the cap, and its log lines: one at once, then at most one a second with
 * how many were left unsaid.
 */
#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "peercap.h"
#include "test.h"

static char	t_log[64];	/* where stderr, the log, goes */

/* An address as a sockaddr: IPv4 or IPv6 by its text. */
static struct sockaddr *
t_sa(struct sockaddr_storage *ss, const char *addr)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof *ss);
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(40000);
	} else if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(40001);
	}
	return ((struct sockaddr *)ss);
}

/* The lines of the log that hold s. */
static int
t_lines(const char *s)
{
	FILE	*f;
	char	 line[512];
	int	 n = 0;

	fflush(stderr);
	if ((f = fopen(t_log, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL)
		if (strstr(line, s) != NULL)
			n++;
	fclose(f);
	return (n);
}

/* The cap per address; other addresses are not touched by one's. */
static void
t_cap(void)
{
	struct peercap		*pc;
	struct sockaddr_storage	 a, b, m;
	int			 i, refused = 0;

	if (!T_TRUE((pc = peercap_new("api")) != NULL))
		return;
	for (i = 0; i < 20; i++)
		if (peercap_add(pc, t_sa(&a, "192.0.2.7"), 16) == -1)
			refused++;
	T_EQ_INT(refused, 4);
	T_EQ_INT(peercap_count(pc, t_sa(&a, "192.0.2.7")), 16);
	T_OK(peercap_add(pc, t_sa(&b, "192.0.2.8"), 16));
	T_EQ_INT(peercap_count(pc, t_sa(&b, "192.0.2.8")), 1);
	/* A dual-stack socket's IPv4 client is the same address. */
	T_EQ_INT(peercap_add(pc, t_sa(&m, "::ffff:192.0.2.7"), 16), -1);
	T_EQ_INT(peercap_count(pc, t_sa(&m, "::ffff:192.0.2.7")), 16);
	peercap_del(pc, t_sa(&m, "::ffff:192.0.2.7"));
	T_EQ_INT(peercap_count(pc, t_sa(&a, "192.0.2.7")), 15);
	T_OK(peercap_add(pc, t_sa(&a, "192.0.2.7"), 16));
	T_OK(peercap_add(pc, t_sa(&a, "2001:db8::7"), 1));
	T_EQ_INT(peercap_add(pc, t_sa(&a, "2001:db8::7"), 1), -1);
	peercap_del(pc, t_sa(&a, "2001:db8::7"));
	peercap_del(pc, t_sa(&a, "2001:db8::7"));	/* one too many */
	T_EQ_INT(peercap_count(pc, t_sa(&a, "2001:db8::7")), 0);
	T_OK(peercap_add(pc, t_sa(&a, "2001:db8::7"), 1));
	/* Closing them all frees the address; never refused, it goes. */
	peercap_del(pc, t_sa(&b, "192.0.2.8"));
	T_EQ_INT(peercap_count(pc, t_sa(&b, "192.0.2.8")), 0);
	peercap_free(pc);
	peercap_free(NULL);
}

/* One line at once, the rest a second later in one line, then forgotten. */
static void
t_log_lines(void)
{
	struct peercap		*pc;
	struct sockaddr_storage	 a;
	int			 i;

	if (!T_TRUE((pc = peercap_new("synth")) != NULL))
		return;
	for (i = 0; i < 4; i++)
		T_OK(peercap_add(pc, t_sa(&a, "198.51.100.9"), 4));
	for (i = 0; i < 50; i++)
		(void)peercap_add(pc, t_sa(&a, "198.51.100.9"), 4);
	T_EQ_INT(t_lines("synth: 198.51.100.9: 4 connections open from this "
	    "address, the most it may hold (api.max_connections_per_address): "
	    "closed"), 1);
	peercap_sweep(pc);
	T_EQ_INT(t_lines("more connections"), 0);
	for (i = 0; i < 4; i++)
		peercap_del(pc, t_sa(&a, "198.51.100.9"));
	usleep(1100 * 1000);
	peercap_sweep(pc);
	T_EQ_INT(t_lines("synth: 198.51.100.9: 49 more connections over "
	    "api.max_connections_per_address closed in the last 1 s"), 1);
	peercap_sweep(pc);
	T_EQ_INT(t_lines("more connections"), 1);
	/* Refused again within the second of that line: quiet. */
	for (i = 0; i < 5; i++)
		(void)peercap_add(pc, t_sa(&a, "198.51.100.9"), 0);
	T_EQ_INT(t_lines("198.51.100.9: 0 connections open"), 0);
	peercap_free(pc);
}

int
main(void)
{
	int	fd;

	snprintf(t_log, sizeof t_log, "/tmp/t_peercap.XXXXXX");
	if ((fd = mkstemp(t_log)) == -1 || freopen(t_log, "w", stderr) ==
	    NULL) {
		printf("1..0 # SKIP cannot make a log file\n");
		return (0);
	}
	close(fd);
	t_cap();
	t_log_lines();
	unlink(t_log);
	return (t_done());
}
