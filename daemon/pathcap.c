/*
 * pathcap.c: the measured path capacities and their file.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon.h"
#include "log.h"
#include "pathcap.h"
#include "state.h"

/* The measured capacity of one client's path in one direction. */
struct pathcap_path {
	char			 addr[INET6_ADDRSTRLEN];
	int			 upload;
	double			 bps;		/* bytes per second */
	uint64_t		 bytes;
	double			 seconds;
	unsigned		 streams;
	double			 when;		/* Unix time */
};

struct pathcap {
	struct pathcap_path	 v[PATHCAP_MAX];
	size_t			 n;
};

const char *
pathcap_addr_norm(const char *addr)
{
	if (strncasecmp(addr, "::ffff:", 7) == 0 && strchr(addr + 7, '.'))
		return (addr + 7);
	return (addr);
}

/* Write the paths to STATE_DIR/paths.json, atomically. */
static void
pathcap_save(struct daemon *d)
{
	const struct pathcap	*pc = d->pathcap;
	json_t			*a, *j;
	char			*js;
	size_t			 i;

	if ((a = json_array()) == NULL)
		return;
	for (i = 0; i < pc->n; i++)
		json_array_append_new(a, json_pack("{s:s,s:s,s:f,s:I,s:f,s:i,"
		    "s:f}", "client", pc->v[i].addr, "direction",
		    pc->v[i].upload ? "upload" : "download",
		    "bytes_per_second", pc->v[i].bps, "bytes",
		    (json_int_t)pc->v[i].bytes, "seconds",
		    pc->v[i].seconds, "streams", (int)pc->v[i].streams,
		    "time", pc->v[i].when));
	j = json_pack("{s:s,s:o}", "format", "nasperf-paths", "paths", a);
	if (j != NULL && (js = json_dumps(j, JSON_INDENT(1))) != NULL) {
		if (state_write(d->state_dir, PATHCAP_FILE, js, strlen(js),
		    0600) == -1)
			log_warn("synth: %s/%s", d->state_dir, PATHCAP_FILE);
		free(js);
	}
	json_decref(j);
}

int
pathcap_init(struct daemon *d, char **cause)
{
	struct pathcap		*pc;
	struct pathcap_path	*p;
	json_error_t		 err;
	json_t			*j, *e;
	const char		*addr, *dir;
	char			 path[4200];
	size_t			 i;

	*cause = NULL;
	if ((pc = calloc(1, sizeof *pc)) == NULL) {
		if (asprintf(cause, "out of memory") == -1)
			*cause = NULL;
		return (-1);
	}
	d->pathcap = pc;
	snprintf(path, sizeof path, "%s/%s", d->state_dir, PATHCAP_FILE);
	if ((j = json_load_file(path, 0, &err)) == NULL) {
		if (access(path, F_OK) == 0)
			log_warnx("synth: %s: %s", path, err.text);
		return (0);
	}
	json_array_foreach(json_object_get(j, "paths"), i, e) {
		addr = json_string_value(json_object_get(e, "client"));
		dir = json_string_value(json_object_get(e, "direction"));
		if (addr == NULL || dir == NULL ||
		    strlen(addr) >= sizeof pc->v[0].addr || pc->n == PATHCAP_MAX)
			continue;
		p = &pc->v[pc->n];
		snprintf(p->addr, sizeof p->addr, "%s", addr);
		p->upload = strcmp(dir, "upload") == 0;
		p->bps = json_number_value(json_object_get(e,
		    "bytes_per_second"));
		p->bytes = (uint64_t)json_integer_value(json_object_get(e,
		    "bytes"));
		p->seconds = json_number_value(json_object_get(e, "seconds"));
		p->streams = (unsigned)json_integer_value(json_object_get(e,
		    "streams"));
		p->when = json_number_value(json_object_get(e, "time"));
		if (p->bps > 0)
			pc->n++;
	}
	json_decref(j);
	return (0);
}

void
pathcap_shutdown(struct daemon *d)
{
	free(d->pathcap);
	d->pathcap = NULL;
}

void
pathcap_record(struct daemon *d, const char *addr, int upload,
    uint64_t bytes, double seconds, unsigned streams)
{
	struct pathcap		*pc = d->pathcap;
	struct pathcap_path	*p = NULL;
	struct timespec		 now;
	size_t			 i;

	if (pc == NULL || !(seconds > 0))
		return;
	addr = pathcap_addr_norm(addr);
	for (i = 0; i < pc->n; i++) {
		if (pc->v[i].upload == upload &&
		    strcmp(pc->v[i].addr, addr) == 0)
			p = &pc->v[i];
	}
	if (p == NULL && pc->n < PATHCAP_MAX)
		p = &pc->v[pc->n++];
	if (p == NULL) {
		p = &pc->v[0];
		for (i = 1; i < pc->n; i++)
			if (pc->v[i].when < p->when)
				p = &pc->v[i];
	}
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(p->addr, sizeof p->addr, "%s", addr);
	p->upload = upload;
	p->bytes = bytes;
	p->seconds = seconds;
	p->bps = (double)bytes / seconds;
	p->streams = streams;
	p->when = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	log_info("synth: %s %s: %.1f MB/s over %.1f s, %u stream%s", p->addr,
	    p->upload ? "upload" : "download", p->bps / 1e6, seconds,
	    p->streams, p->streams == 1 ? "" : "s");
	pathcap_save(d);
}

int
pathcap_get(const struct daemon *d, const char *addr, int upload,
    double *bytes_per_s, double *when)
{
	const struct pathcap	*pc = d->pathcap;
	size_t			 i;

	if (pc != NULL && addr != NULL) {
		addr = pathcap_addr_norm(addr);
		for (i = 0; i < pc->n; i++) {
			if (pc->v[i].upload == (upload != 0) &&
			    strcmp(pc->v[i].addr, addr) == 0) {
				*bytes_per_s = pc->v[i].bps;
				*when = pc->v[i].when;
				return (0);
			}
		}
	}
	errno = ENOENT;
	return (-1);
}
