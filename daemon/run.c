/*
 * run.c: a run's figures checked, kept typed, and turned into JSON and
 * back at the edges (see run.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsonget.h"
#include "np.h"
#include "run.h"
#include "verdict.h"

static const char *const run_protocols[] = {
	"smb1", "smb2", "smb3", "nfs3", "nfs4", "afp", "iscsi", "http",
	"local", "other"
};
static const char *const run_ops[] = { "read", "write", "mixed", "list" };

/* The keys a request body may have. */
static const char *const run_keys[] = {
	"label", "client", "protocol", "op", "bytes", "ops", "files",
	"block_size", "client_seconds", "start", "end", "clock_offset",
	"pid", "command", "interrupted"
};

/* The counting figures: key, bit, limit. */
static const struct {
	const char	*key;
	unsigned	 bit;
	double		 max;
} run_counts[] = {
	{ "bytes", RUN_BYTES, RUN_MAX_BYTES },
	{ "ops", RUN_OPS, RUN_MAX_OPS },
	{ "files", RUN_FILES, RUN_MAX_FILES },
	{ "block_size", RUN_BLOCK, RUN_MAX_BLOCK },
};

/* Whether s is one of the n words. */
static int
run_oneof(const char *s, const char *const *words, size_t n)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, words[i]) == 0)
			return (1);
	return (0);
}

/* The member of a body that counts: absent and null are not given. */
static const json_t *
run_member(const json_t *body, const char *key)
{
	const json_t	*v = json_object_get(body, key);

	return (json_is_null(v) ? NULL : v);
}

/* Where f keeps the count run_counts[i] names. */
static uint64_t *
run_count(struct run_figures *f, size_t i)
{
	uint64_t *const	c[] = { &f->bytes, &f->ops, &f->files, &f->block_size };

	return (c[i]);
}

/* The count run_counts[i] names. */
static uint64_t
run_count_of(const struct run_figures *f, size_t i)
{
	const uint64_t	c[] = { f->bytes, f->ops, f->files, f->block_size };

	return (c[i]);
}

/* The wrapped command's counts ("command"); -1 with msg. */
static int
run_parse_command(const json_t *body, struct run_figures *f, char *msg,
    size_t msgsz)
{
	static const char *const keys[] = { "storage_read_bytes",
	    "storage_write_bytes", "cpu_seconds" };
	static const unsigned bits[] = { RUN_CMD_READ, RUN_CMD_WRITE,
	    RUN_CMD_CPU };
	const json_t	*c = run_member(body, "command"), *v;
	const char	*key;
	double		 x;
	size_t		 i;

	if (c == NULL)
		return (0);
	if (!json_is_object(c))
		goto bad;
	json_object_foreach((json_t *)c, key, v)
		if (!run_oneof(key, keys, NP_NITEMS(keys)))
			goto bad;
	f->given |= RUN_COMMAND;
	for (i = 0; i < NP_NITEMS(keys); i++) {
		if ((v = json_object_get(c, keys[i])) == NULL)
			continue;
		x = json_number_value(v);
		if (!json_is_number(v) || !(x >= 0) || x > (i < 2 ?
		    RUN_MAX_BYTES : RUN_MAX_SECONDS) || (i < 2 &&
		    !json_is_integer(v)))
			goto bad;
		f->given |= bits[i];
		if (i == 0)
			f->cmd_read = (uint64_t)json_integer_value(v);
		else if (i == 1)
			f->cmd_write = (uint64_t)json_integer_value(v);
		else
			f->cmd_cpu = x;
	}
	return (0);
bad:
	snprintf(msg, msgsz, "command: expected an object of "
	    "storage_read_bytes and storage_write_bytes (integers from 0 to "
	    "%.0f) and cpu_seconds (0 to %.0f)", RUN_MAX_BYTES,
	    RUN_MAX_SECONDS);
	return (-1);
}

/* A text figure (label, client) into out; -1 with msg. */
static int
run_parse_text(const json_t *body, const char *key, unsigned bit,
    struct run_figures *f, char *out, size_t outsz, char *msg, size_t msgsz)
{
	const json_t	*v = run_member(body, key);
	const char	*s;

	if (v == NULL)
		return (0);
	if ((s = json_string_value(v)) == NULL || strlen(s) > RUN_TEXT_MAX) {
		snprintf(msg, msgsz, "%s: expected a string of at most %d "
		    "bytes", key, RUN_TEXT_MAX);
		return (-1);
	}
	snprintf(out, outsz, "%s", s);
	f->given |= bit;
	return (0);
}

/*
 * A figure that is one of n words (protocol, op) into out; -1 with msg,
 * which lists them.
 */
static int
run_parse_word(const json_t *body, const char *key, const char *const *words,
    size_t n, unsigned bit, struct run_figures *f, char *out, size_t outsz,
    char *msg, size_t msgsz)
{
	const json_t	*v = run_member(body, key);
	size_t		 i, len;

	if (v == NULL)
		return (0);
	if (!run_oneof(json_string_value(v), words, n)) {
		len = (size_t)snprintf(msg, msgsz, "%s: expected one of", key);
		for (i = 0; i < n && len < msgsz; i++)
			len += (size_t)snprintf(msg + len, msgsz - len, " %s",
			    words[i]);
		return (-1);
	}
	snprintf(out, outsz, "%s", json_string_value(v));
	f->given |= bit;
	return (0);
}

/* A recorded run's start, end and clock offset as given; -1 with msg. */
static int
run_parse_window(const json_t *body, struct run_figures *f, char *msg,
    size_t msgsz)
{
	const json_t	*js = json_object_get(body, "start");
	const json_t	*je = json_object_get(body, "end");
	const json_t	*jo = run_member(body, "clock_offset");

	/* Any start or end, even null, makes a recorded run. */
	if (js != NULL)
		f->given |= RUN_START;
	if (je != NULL)
		f->given |= RUN_END;
	f->start = json_is_number(js) ? json_number_value(js) : NAN;
	f->end = json_is_number(je) ? json_number_value(je) : NAN;
	if (jo == NULL)
		return (0);
	f->clock_offset = json_number_value(jo);
	if (!json_is_number(jo) || !(fabs(f->clock_offset) <= RUN_MAX_OFFSET)) {
		snprintf(msg, msgsz, "clock_offset: %.0f s is beyond reason "
		    "(at most %.0f s either way); set the client's clock",
		    f->clock_offset, RUN_MAX_OFFSET);
		return (-1);
	}
	f->given |= RUN_OFFSET;
	return (0);
}

int
run_parse(const json_t *body, struct run_figures *f, char *msg, size_t msgsz)
{
	const json_t	*v;
	const char	*key;
	double		 x;
	size_t		 i;

	memset(f, 0, sizeof *f);
	f->start = f->end = NAN;
	json_object_foreach((json_t *)body, key, v) {
		if (!run_oneof(key, run_keys, NP_NITEMS(run_keys))) {
			snprintf(msg, msgsz, "unknown key '%.40s'", key);
			return (-1);
		}
	}
	if ((v = run_member(body, "pid")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > RUN_MAX_PID) {
			snprintf(msg, msgsz, "pid: expected a process id from "
			    "1 to %d", RUN_MAX_PID);
			return (-1);
		}
		f->pid = (int)json_integer_value(v);
		f->given |= RUN_PID;
	}
	if (run_parse_command(body, f, msg, msgsz) == -1)
		return (-1);
	for (i = 0; i < NP_NITEMS(run_counts); i++) {
		if ((v = run_member(body, run_counts[i].key)) == NULL)
			continue;
		x = json_number_value(v);
		if (!json_is_integer(v) || !(x >= 0) || x > run_counts[i].max) {
			snprintf(msg, msgsz, "%s: expected an integer from 0 "
			    "to %.0f", run_counts[i].key, run_counts[i].max);
			return (-1);
		}
		*run_count(f, i) = (uint64_t)json_integer_value(v);
		f->given |= run_counts[i].bit;
	}
	if ((v = run_member(body, "client_seconds")) != NULL) {
		x = json_number_value(v);
		if (!json_is_number(v) || !(x > 0) || x > RUN_MAX_SECONDS) {
			snprintf(msg, msgsz, "client_seconds: expected a "
			    "number of seconds from above 0 to %.0f",
			    RUN_MAX_SECONDS);
			return (-1);
		}
		f->client_seconds = x;
		f->given |= RUN_SECONDS;
	}
	if (run_parse_text(body, "label", RUN_LABEL, f, f->label,
	    sizeof f->label, msg, msgsz) == -1 || run_parse_text(body,
	    "client", RUN_CLIENT, f, f->client, sizeof f->client, msg,
	    msgsz) == -1)
		return (-1);
	if (run_parse_word(body, "protocol", run_protocols,
	    NP_NITEMS(run_protocols), RUN_PROTOCOL, f, f->protocol,
	    sizeof f->protocol, msg, msgsz) == -1)
		return (-1);
	/* The client stopped the benchmark before it finished. */
	if ((v = run_member(body, "interrupted")) != NULL) {
		if (!json_is_boolean(v)) {
			snprintf(msg, msgsz, "interrupted: expected true or "
			    "false");
			return (-1);
		}
		if (json_is_true(v))
			f->given |= RUN_INTERRUPTED;
	}
	if (run_parse_word(body, "op", run_ops, NP_NITEMS(run_ops), RUN_OP, f,
	    f->op, sizeof f->op, msg, msgsz) == -1)
		return (-1);
	return (run_parse_window(body, f, msg, msgsz));
}

/* Whether addr is this box's loopback. */
static int
run_loopback(const char *addr)
{
	return (addr != NULL && (strncmp(addr, "127.", 4) == 0 ||
	    strcmp(addr, "::1") == 0 || strncmp(addr, "::ffff:127.", 11) == 0));
}

int
run_admit(const struct run_rec *r, const struct run_figures *f, int opening,
    const char *peer, char *msg, size_t msgsz)
{
	int	recorded = (f->given & (RUN_START | RUN_END)) != 0;

	/*
	 * The process a live run names as its own: the benchmark that
	 * nasperf run started, on this box, named as the run opens.
	 */
	if ((f->given & RUN_PID) && opening && (recorded ||
	    !run_loopback(peer))) {
		snprintf(msg, msgsz, "pid: only a live run from a client on "
		    "this box can name its process");
		return (-1);
	}
	if ((f->given & RUN_PID) && !opening && !(r->f.given & RUN_PID)) {
		snprintf(msg, msgsz, "unknown key 'pid': a run names its "
		    "process when it opens");
		return (-1);
	}
	if ((f->given & RUN_COMMAND) && !(f->given & RUN_PID) &&
	    !(r->f.given & RUN_PID)) {
		snprintf(msg, msgsz, "unknown key 'command': only a run that "
		    "named its process has one");
		return (-1);
	}
	if (!opening && recorded) {
		snprintf(msg, msgsz, "a live run ends now: start and end are "
		    "not taken here");
		return (-1);
	}
	return (0);
}

void
run_apply(struct run_rec *r, const struct run_figures *f)
{
	struct run_figures	*to = &r->f;
	size_t			 i;

	if ((f->given & RUN_PID) && !(to->given & RUN_PID)) {
		to->pid = f->pid;
		to->given |= RUN_PID;
	}
	if (f->given & RUN_COMMAND) {
		to->given &= ~(RUN_COMMAND | RUN_CMD_READ | RUN_CMD_WRITE |
		    RUN_CMD_CPU);
		to->given |= f->given & (RUN_COMMAND | RUN_CMD_READ |
		    RUN_CMD_WRITE | RUN_CMD_CPU);
		to->cmd_read = f->cmd_read;
		to->cmd_write = f->cmd_write;
		to->cmd_cpu = f->cmd_cpu;
	}
	for (i = 0; i < NP_NITEMS(run_counts); i++)
		if (f->given & run_counts[i].bit) {
			*run_count(to, i) = run_count_of(f, i);
			to->given |= run_counts[i].bit;
		}
	if (f->given & RUN_SECONDS)
		to->client_seconds = f->client_seconds;
	if (f->given & RUN_LABEL)
		memcpy(to->label, f->label, sizeof to->label);
	if (f->given & RUN_CLIENT)
		memcpy(to->client, f->client, sizeof to->client);
	if (f->given & RUN_PROTOCOL)
		memcpy(to->protocol, f->protocol, sizeof to->protocol);
	if (f->given & RUN_OP)
		memcpy(to->op, f->op, sizeof to->op);
	to->given |= f->given & (RUN_SECONDS | RUN_LABEL | RUN_CLIENT |
	    RUN_PROTOCOL | RUN_OP | RUN_INTERRUPTED);
}

int
run_place(struct run_rec *r, const struct run_figures *f, double now,
    char *msg, size_t msgsz)
{
	double	off = (f->given & RUN_OFFSET) ? f->clock_offset : 0;
	double	s, e;

	if (!isfinite(f->start) || !isfinite(f->end)) {
		snprintf(msg, msgsz, "a recorded run needs both start and end "
		    "(Unix seconds on the client's clock)");
		return (-1);
	}
	s = f->start - off;
	e = f->end - off;
	if (!(e > s) || e - s > RUN_MAX_SECONDS || s < 1e9) {
		snprintf(msg, msgsz, "start and end: end must be after start, "
		    "at most %.0f s later, both Unix seconds", RUN_MAX_SECONDS);
		return (-1);
	}
	if (e > now + 1.0) {
		snprintf(msg, msgsz, "the window ends %.1f s in the server's "
		    "future: is clock_offset right?", e - now);
		return (-1);
	}
	r->start = s;
	r->end = e;
	r->retroactive = 1;
	r->ended = 1;
	if (f->given & RUN_OFFSET) {
		r->has_offset = 1;
		r->clock_offset = off;
	}
	return (0);
}

void
run_set_dialect(struct run_rec *r, const char *dia)
{
	const char	*proto;

	if (!r->noticed || strncmp(r->f.protocol, "smb", 3) != 0 ||
	    dia == NULL)
		return;
	if (strncmp(dia, "SMB3", 4) == 0)
		proto = "smb3";
	else if (strncmp(dia, "SMB2", 4) == 0)
		proto = "smb2";
	else if (strcmp(dia, "NT1") == 0 || strcmp(dia, "LANMAN2") == 0)
		proto = "smb1";
	else
		return;
	snprintf(r->f.protocol, sizeof r->f.protocol, "%s", proto);
}

int
run_same_size(const struct run_rec *a, const struct verdict_run *vr)
{
	uint64_t	v;

	v = a->f.block_size;
	if (vr->has_block && (a->f.given & RUN_BLOCK) && v > 0 &&
	    (v > 2 * vr->block_size || 2 * v < vr->block_size))
		return (0);
	v = a->f.bytes;
	if (vr->has_bytes && (a->f.given & RUN_BYTES) && v > 0 &&
	    (v > 4 * vr->bytes || 4 * v < vr->bytes))
		return (0);
	return (1);
}

/* Set o's key to v, which it takes; -1 when v is NULL or on ENOMEM. */
static int
run_set(json_t *o, const char *key, json_t *v)
{
	return (v == NULL ? -1 : json_object_set_new(o, key, v));
}

json_t *
run_command_json(const struct run_figures *f)
{
	json_t	*c;

	if ((c = json_object()) == NULL)
		return (NULL);
	if (((f->given & RUN_CMD_READ) && run_set(c, "storage_read_bytes",
	    json_integer((json_int_t)f->cmd_read)) == -1) ||
	    ((f->given & RUN_CMD_WRITE) && run_set(c, "storage_write_bytes",
	    json_integer((json_int_t)f->cmd_write)) == -1) ||
	    ((f->given & RUN_CMD_CPU) && run_set(c, "cpu_seconds",
	    json_real(f->cmd_cpu)) == -1)) {
		json_decref(c);
		return (NULL);
	}
	return (c);
}

json_t *
run_json(const struct run_rec *r)
{
	const struct run_figures *f = &r->f;
	json_t		*o, *a;
	size_t		 i;
	int		 bad = 0;

	if ((o = json_pack("{s:I,s:o,s:b,s:b}", "id", (json_int_t)r->id,
	    "client_addr", r->client_addr[0] != '\0' ?
	    json_string(r->client_addr) : json_null(), "ended", r->ended,
	    "retroactive", r->retroactive)) == NULL)
		return (NULL);
	if (f->given & RUN_PID)
		bad |= run_set(o, "pid", json_integer(f->pid));
	if (f->given & RUN_COMMAND)
		bad |= run_set(o, "command", run_command_json(f));
	for (i = 0; i < NP_NITEMS(run_counts); i++)
		if (f->given & run_counts[i].bit)
			bad |= run_set(o, run_counts[i].key, json_integer(
			    (json_int_t)run_count_of(f, i)));
	if (f->given & RUN_SECONDS)
		bad |= run_set(o, "client_seconds",
		    json_real(f->client_seconds));
	if (f->given & RUN_LABEL)
		bad |= run_set(o, "label", json_string(f->label));
	if (f->given & RUN_CLIENT)
		bad |= run_set(o, "client", json_string(f->client));
	if (f->given & RUN_PROTOCOL)
		bad |= run_set(o, "protocol", json_string(f->protocol));
	if (f->given & RUN_INTERRUPTED)
		bad |= run_set(o, "interrupted", json_true());
	if (f->given & RUN_OP)
		bad |= run_set(o, "op", json_string(f->op));
	if (r->start > 0)
		bad |= run_set(o, "start", json_real(r->start));
	if (r->end > 0)
		bad |= run_set(o, "end", json_real(r->end));
	if (r->has_offset)
		bad |= run_set(o, "clock_offset", json_real(r->clock_offset));
	if (r->noticed)
		bad |= run_set(o, "origin", json_string("auto"));
	if (r->joined != 0)
		bad |= run_set(o, "joined", json_integer((json_int_t)r->joined));
	if (r->ntransfers > 0) {
		bad |= run_set(o, "transfers", a = json_array());
		for (i = 0; a != NULL && i < r->ntransfers; i++)
			bad |= json_array_append_new(a, json_integer(
			    (json_int_t)r->transfers[i]));
	}
	if (bad) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* A saved text member into out, cut to fit; its bit when there. */
static unsigned
run_load_text(const json_t *o, const char *key, unsigned bit, char *out,
    size_t outsz)
{
	const char	*s = jget_str(o, key);

	if (s == NULL)
		return (0);
	snprintf(out, outsz, "%s", s);
	return (bit);
}

int
run_load(const json_t *o, struct run_rec *r)
{
	struct run_figures	*f = &r->f;
	const json_t		*c, *v;
	json_int_t		 pid;
	size_t			 i;

	memset(r, 0, sizeof *r);
	f->start = f->end = NAN;
	if (!json_is_object(o))
		return (-1);
	r->id = (unsigned long)json_integer_value(json_object_get(o, "id"));
	if (jget_str(o, "client_addr") != NULL)
		snprintf(r->client_addr, sizeof r->client_addr, "%s",
		    jget_str(o, "client_addr"));
	r->ended = json_is_true(json_object_get(o, "ended"));
	r->retroactive = json_is_true(json_object_get(o, "retroactive"));
	r->noticed = jget_str(o, "origin") != NULL &&
	    strcmp(jget_str(o, "origin"), "auto") == 0;
	r->start = jget_num(o, "start");
	r->end = jget_num(o, "end");
	r->has_offset = jget_num_to(o, "clock_offset", &r->clock_offset);
	r->joined = (unsigned long)json_integer_value(json_object_get(o,
	    "joined"));
	json_array_foreach(json_object_get(o, "transfers"), i, v)
		if (r->ntransfers < RUN_TRANSFERS_MAX)
			r->transfers[r->ntransfers++] =
			    (unsigned long)json_integer_value(v);
	pid = json_integer_value(json_object_get(o, "pid"));
	if (pid >= 1 && pid <= RUN_MAX_PID) {
		f->pid = (int)pid;
		f->given |= RUN_PID;
	}
	if (json_is_object(c = json_object_get(o, "command"))) {
		f->given |= RUN_COMMAND;
		if (jget_u64(c, "storage_read_bytes", &f->cmd_read))
			f->given |= RUN_CMD_READ;
		if (jget_u64(c, "storage_write_bytes", &f->cmd_write))
			f->given |= RUN_CMD_WRITE;
		if (jget_num_to(c, "cpu_seconds", &f->cmd_cpu))
			f->given |= RUN_CMD_CPU;
	}
	for (i = 0; i < NP_NITEMS(run_counts); i++)
		if (jget_u64(o, run_counts[i].key, run_count(f, i)))
			f->given |= run_counts[i].bit;
	if (jget_num_to(o, "client_seconds", &f->client_seconds))
		f->given |= RUN_SECONDS;
	f->given |= run_load_text(o, "label", RUN_LABEL, f->label,
	    sizeof f->label);
	f->given |= run_load_text(o, "client", RUN_CLIENT, f->client,
	    sizeof f->client);
	f->given |= run_load_text(o, "protocol", RUN_PROTOCOL, f->protocol,
	    sizeof f->protocol);
	f->given |= run_load_text(o, "op", RUN_OP, f->op, sizeof f->op);
	if (json_is_true(json_object_get(o, "interrupted")))
		f->given |= RUN_INTERRUPTED;
	return (0);
}

void
run_judged_load(const json_t *rep, struct run_judged *j)
{
	const json_t	*s = json_object_get(rep, "session");
	const char	*sd, *ed, *dia;

	memset(j, 0, sizeof *j);
	if (!json_is_object(rep))
		return;
	j->judged = 1;
	verdict_outcome_read(rep, &j->o);
	if (!json_is_object(s))
		return;
	j->session = 1;
	sd = jget_str(json_object_get(s, "signing"), "degree");
	ed = jget_str(json_object_get(s, "encryption"), "degree");
	j->crypted = (sd != NULL && strcmp(sd, "full") == 0) ||
	    (ed != NULL && strcmp(ed, "full") == 0);
	if ((dia = jget_str(s, "dialect")) != NULL)
		snprintf(j->dialect, sizeof j->dialect, "%s", dia);
}

void
run_view(const struct run_rec *r, struct verdict_run *vr, char *idbuf,
    size_t idsz)
{
	const struct run_figures *f = &r->f;

	memset(vr, 0, sizeof *vr);
	snprintf(idbuf, idsz, "%lu", r->id);
	vr->id = idbuf;
	vr->label = (f->given & RUN_LABEL) ? f->label : NULL;
	vr->protocol = (f->given & RUN_PROTOCOL) ? f->protocol : NULL;
	vr->op = (f->given & RUN_OP) ? f->op : NULL;
	vr->client = (f->given & RUN_CLIENT) ? f->client : NULL;
	vr->client_addr = r->client_addr[0] != '\0' ? r->client_addr : NULL;
	vr->has_bytes = (f->given & RUN_BYTES) != 0;
	vr->bytes = f->bytes;
	vr->has_ops = (f->given & RUN_OPS) != 0;
	vr->ops = f->ops;
	vr->has_files = (f->given & RUN_FILES) != 0;
	vr->files = f->files;
	vr->has_block = (f->given & RUN_BLOCK) != 0;
	vr->block_size = f->block_size;
	vr->has_seconds = (f->given & RUN_SECONDS) != 0;
	vr->seconds = f->client_seconds;
	vr->start = r->start;
	vr->end = r->end;
	vr->ended = r->ended;
	vr->interrupted = (f->given & RUN_INTERRUPTED) != 0;
	vr->retroactive = r->retroactive;
	vr->has_offset = r->has_offset;
	vr->clock_offset = r->clock_offset;
}
