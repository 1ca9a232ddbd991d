/*
 * t_run.c: a run's figures taken from a request body, checked against the
 * run they go into, placed on the server's clock, and turned into the
 * JSON its file holds and back without losing a figure.
 */
#include "config.h"

#include <math.h>

#include <jansson.h>

#include "run.h"
#include "test.h"

/* Parse body text; the return code, msg filled on failure. */
static int
t_parse(const char *text, struct run_figures *f, char *msg, size_t msgsz)
{
	json_t	*body;
	int	 rc;

	msg[0] = '\0';
	if ((body = json_loads(text, 0, NULL)) == NULL) {
		snprintf(msg, msgsz, "not JSON");
		return (-2);
	}
	rc = run_parse(body, f, msg, msgsz);
	json_decref(body);
	return (rc);
}

/* Whether body text is refused with a message containing want. */
static void
t_refused(const char *text, const char *want)
{
	struct run_figures	f;
	char			msg[256];
	int			rc = t_parse(text, &f, msg, sizeof msg);

	t_check(rc == -1 && strstr(msg, want) != NULL, text, __FILE__,
	    __LINE__, "rc %d, message '%s', wanted '%s'", rc, msg, want);
}

static void
t_figures(void)
{
	struct run_figures	f;
	char			msg[256];

	T_EQ_INT(t_parse("{\"label\": \"copy\", \"client\": \"mac\", "
	    "\"protocol\": \"smb3\", \"op\": \"write\", \"bytes\": 1000000, "
	    "\"ops\": 12, \"files\": 3, \"block_size\": 1048576, "
	    "\"client_seconds\": 2.5, \"interrupted\": true, \"pid\": 42, "
	    "\"command\": {\"storage_read_bytes\": 7, \"cpu_seconds\": 0.5}}",
	    &f, msg, sizeof msg), 0);
	T_EQ_STR(f.label, "copy");
	T_EQ_STR(f.client, "mac");
	T_EQ_STR(f.protocol, "smb3");
	T_EQ_STR(f.op, "write");
	T_EQ_U64(f.bytes, 1000000);
	T_EQ_U64(f.ops, 12);
	T_EQ_U64(f.files, 3);
	T_EQ_U64(f.block_size, 1048576);
	T_NEAR(f.client_seconds, 2.5, 1e-9);
	T_EQ_INT(f.pid, 42);
	T_EQ_U64(f.cmd_read, 7);
	T_NEAR(f.cmd_cpu, 0.5, 1e-9);
	T_EQ_INT(f.given, RUN_LABEL | RUN_CLIENT | RUN_PROTOCOL | RUN_OP |
	    RUN_BYTES | RUN_OPS | RUN_FILES | RUN_BLOCK | RUN_SECONDS |
	    RUN_INTERRUPTED | RUN_PID | RUN_COMMAND | RUN_CMD_READ |
	    RUN_CMD_CPU);

	/* null is not given; false does not interrupt. */
	T_EQ_INT(t_parse("{\"bytes\": null, \"label\": null, \"interrupted\": "
	    "false, \"command\": null}", &f, msg, sizeof msg), 0);
	T_EQ_INT(f.given, 0);
	T_EQ_INT(t_parse("{}", &f, msg, sizeof msg), 0);
	T_EQ_INT(f.given, 0);

	/* A recorded run: even a null start makes one. */
	T_EQ_INT(t_parse("{\"start\": 1700000000.5, \"end\": 1700000010, "
	    "\"clock_offset\": -2}", &f, msg, sizeof msg), 0);
	T_EQ_INT(f.given, RUN_START | RUN_END | RUN_OFFSET);
	T_NEAR(f.start, 1700000000.5, 1e-6);
	T_NEAR(f.clock_offset, -2, 1e-9);
	T_EQ_INT(t_parse("{\"start\": null}", &f, msg, sizeof msg), 0);
	T_EQ_INT(f.given, RUN_START);
	T_TRUE(isnan(f.start) && isnan(f.end));

	t_refused("{\"colour\": \"red\"}", "unknown key 'colour'");
	t_refused("{\"bytes\": 1.5}", "bytes: expected an integer");
	t_refused("{\"bytes\": -1}", "bytes: expected an integer");
	t_refused("{\"bytes\": \"12\"}", "bytes: expected an integer");
	t_refused("{\"ops\": 20000000000000}", "ops: expected an integer");
	t_refused("{\"block_size\": 2147483648}", "block_size:");
	t_refused("{\"client_seconds\": 0}", "client_seconds: expected");
	t_refused("{\"client_seconds\": 604801}", "client_seconds:");
	t_refused("{\"label\": 3}", "label: expected a string");
	t_refused("{\"client\": \"" "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789" "x\"}",
	    "client: expected a string of at most 200");
	t_refused("{\"protocol\": \"ftp\"}", "protocol: expected one of smb1 "
	    "smb2 smb3 nfs3 nfs4 afp iscsi http local other");
	t_refused("{\"op\": \"copy\"}", "op: expected one of read write mixed "
	    "list");
	t_refused("{\"op\": 3}", "op: expected one of read");
	t_refused("{\"interrupted\": 1}", "interrupted: expected true");
	t_refused("{\"pid\": 0}", "pid: expected a process id");
	t_refused("{\"pid\": 4194305}", "pid: expected a process id");
	t_refused("{\"command\": 3}", "command: expected an object");
	t_refused("{\"command\": {\"rss\": 1}}", "command: expected");
	t_refused("{\"command\": {\"storage_read_bytes\": 1.5}}", "command:");
	t_refused("{\"command\": {\"cpu_seconds\": -1}}", "command:");
	t_refused("{\"clock_offset\": 700000}", "beyond reason");
	t_refused("{\"clock_offset\": \"x\"}", "beyond reason");
}

static void
t_admit(void)
{
	struct run_rec		r;
	struct run_figures	f;
	char			msg[256];

	memset(&r, 0, sizeof r);
	T_EQ_INT(t_parse("{\"pid\": 7}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "127.0.0.1", msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "::1", msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "::ffff:127.0.0.1", msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "192.0.2.7", msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "only a live run from a client on this box") !=
	    NULL);
	T_EQ_INT(run_admit(&r, &f, 1, NULL, msg, sizeof msg), -1);
	/* Not from a recorded run, even on the box. */
	T_EQ_INT(t_parse("{\"pid\": 7, \"start\": 1700000000, \"end\": "
	    "1700000001}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "127.0.0.1", msg, sizeof msg), -1);
	/* A command only with a pid, now or from the opening. */
	T_EQ_INT(t_parse("{\"command\": {}}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 1, "127.0.0.1", msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "unknown key 'command'") != NULL);
	T_EQ_INT(run_admit(&r, &f, 0, NULL, msg, sizeof msg), -1);
	r.f.given |= RUN_PID;
	r.f.pid = 7;
	T_EQ_INT(run_admit(&r, &f, 0, NULL, msg, sizeof msg), 0);
	/* A pid at the end only for a run that named one. */
	T_EQ_INT(t_parse("{\"pid\": 8}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 0, NULL, msg, sizeof msg), 0);
	run_apply(&r, &f);
	T_EQ_INT(r.f.pid, 7);
	r.f.given = 0;
	T_EQ_INT(run_admit(&r, &f, 0, NULL, msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "unknown key 'pid'") != NULL);
	/* A live run ends now. */
	T_EQ_INT(t_parse("{\"end\": 1700000001}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_admit(&r, &f, 0, NULL, msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "a live run ends now") != NULL);
}

static void
t_apply(void)
{
	struct run_rec		r;
	struct run_figures	f;
	char			msg[256];

	memset(&r, 0, sizeof r);
	T_EQ_INT(t_parse("{\"label\": \"a\", \"bytes\": 5, \"interrupted\": "
	    "true, \"op\": \"read\"}", &f, msg, sizeof msg), 0);
	run_apply(&r, &f);
	/* The end's figures replace those given; the rest stay. */
	T_EQ_INT(t_parse("{\"bytes\": 9, \"interrupted\": false, "
	    "\"client_seconds\": 3}", &f, msg, sizeof msg), 0);
	run_apply(&r, &f);
	T_EQ_STR(r.f.label, "a");
	T_EQ_STR(r.f.op, "read");
	T_EQ_U64(r.f.bytes, 9);
	T_NEAR(r.f.client_seconds, 3, 1e-9);
	T_TRUE((r.f.given & RUN_INTERRUPTED) != 0);
	T_TRUE((r.f.given & (RUN_OPS | RUN_PROTOCOL)) == 0);
}

static void
t_place(void)
{
	struct run_rec		r;
	struct run_figures	f;
	char			msg[256];
	double			now = 1800000000;

	memset(&r, 0, sizeof r);
	T_EQ_INT(t_parse("{\"start\": 1700000100, \"end\": 1700000110.5, "
	    "\"clock_offset\": 100}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_place(&r, &f, now, msg, sizeof msg), 0);
	T_NEAR(r.start, 1700000000, 1e-6);
	T_NEAR(r.end, 1700000010.5, 1e-6);
	T_TRUE(r.ended && r.retroactive && r.has_offset);
	T_NEAR(r.clock_offset, 100, 1e-9);

	memset(&r, 0, sizeof r);
	T_EQ_INT(t_parse("{\"start\": 1700000000}", &f, msg, sizeof msg), 0);
	T_EQ_INT(run_place(&r, &f, now, msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "needs both start and end") != NULL);
	T_EQ_INT(t_parse("{\"start\": 1700000010, \"end\": 1700000000}", &f,
	    msg, sizeof msg), 0);
	T_EQ_INT(run_place(&r, &f, now, msg, sizeof msg), -1);
	T_EQ_INT(t_parse("{\"start\": 100, \"end\": 200}", &f, msg,
	    sizeof msg), 0);
	T_EQ_INT(run_place(&r, &f, now, msg, sizeof msg), -1);
	T_EQ_INT(t_parse("{\"start\": 1799999990, \"end\": 1800000005}", &f,
	    msg, sizeof msg), 0);
	T_EQ_INT(run_place(&r, &f, now, msg, sizeof msg), -1);
	T_TRUE(strstr(msg, "in the server's future") != NULL);
	T_TRUE(!r.ended && r.start == 0);
}

static void
t_dialect_size(void)
{
	struct run_rec		r;
	struct verdict_run	vr;

	memset(&r, 0, sizeof r);
	snprintf(r.f.protocol, sizeof r.f.protocol, "smb3");
	run_set_dialect(&r, "NT1");
	T_EQ_STR(r.f.protocol, "smb3");		/* a client's run says */
	r.noticed = 1;
	run_set_dialect(&r, "SMB2_10");
	T_EQ_STR(r.f.protocol, "smb2");
	run_set_dialect(&r, "NT1");
	T_EQ_STR(r.f.protocol, "smb1");
	run_set_dialect(&r, "SMB3_11");
	T_EQ_STR(r.f.protocol, "smb3");
	run_set_dialect(&r, "CORE");
	T_EQ_STR(r.f.protocol, "smb3");
	run_set_dialect(&r, NULL);
	T_EQ_STR(r.f.protocol, "smb3");
	snprintf(r.f.protocol, sizeof r.f.protocol, "nfs3");
	run_set_dialect(&r, "SMB2_10");
	T_EQ_STR(r.f.protocol, "nfs3");

	memset(&vr, 0, sizeof vr);
	vr.has_block = vr.has_bytes = 1;
	vr.block_size = 1048576;
	vr.bytes = 1000000000;
	r.f.given = RUN_BLOCK | RUN_BYTES;
	r.f.block_size = 524288;
	r.f.bytes = 250000000;
	T_EQ_INT(run_same_size(&r, &vr), 1);
	r.f.block_size = 262144;
	T_EQ_INT(run_same_size(&r, &vr), 0);
	r.f.block_size = 2097152;
	r.f.bytes = 4000000001ULL;
	T_EQ_INT(run_same_size(&r, &vr), 0);
	r.f.given = 0;
	T_EQ_INT(run_same_size(&r, &vr), 1);	/* nothing to compare */
}

/* The JSON of a run loaded back gives the same JSON. */
static void
t_round_trip(void)
{
	struct run_rec		 r, back;
	struct run_figures	 f;
	struct verdict_run	 vr;
	json_t			*a, *b;
	char			 msg[256], id[32];

	memset(&r, 0, sizeof r);
	r.id = 17;
	snprintf(r.client_addr, sizeof r.client_addr, "192.0.2.9");
	T_EQ_INT(t_parse("{\"label\": \"t\", \"protocol\": \"nfs4\", \"op\": "
	    "\"read\", \"bytes\": 123456789, \"block_size\": 65536, "
	    "\"client_seconds\": 1.25, \"pid\": 99, \"command\": "
	    "{\"storage_read_bytes\": 5, \"storage_write_bytes\": 6}}", &f,
	    msg, sizeof msg), 0);
	run_apply(&r, &f);
	r.start = 1700000000.25;
	r.end = 1700000002.5;
	r.ended = 1;
	r.noticed = 1;
	r.joined = 4;
	r.transfers[0] = 5;
	r.transfers[1] = 6;
	r.ntransfers = 2;
	a = run_json(&r);
	T_TRUE(a != NULL);
	T_EQ_INT(json_integer_value(json_object_get(a, "id")), 17);
	T_EQ_STR(json_string_value(json_object_get(a, "origin")), "auto");
	T_EQ_INT(json_array_size(json_object_get(a, "transfers")), 2);
	T_TRUE(json_object_get(a, "interrupted") == NULL);
	T_TRUE(json_object_get(a, "ops") == NULL);
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(a,
	    "command"), "storage_write_bytes")), 6);
	T_TRUE(json_object_get(json_object_get(a, "command"),
	    "cpu_seconds") == NULL);
	T_EQ_INT(run_load(a, &back), 0);
	b = run_json(&back);
	T_TRUE(json_equal(a, b));
	json_decref(b);

	run_view(&back, &vr, id, sizeof id);
	T_EQ_STR(vr.id, "17");
	T_EQ_STR(vr.protocol, "nfs4");
	T_EQ_STR(vr.client_addr, "192.0.2.9");
	T_TRUE(vr.client == NULL && vr.has_bytes && !vr.has_ops &&
	    vr.has_block && vr.has_seconds && vr.ended && !vr.retroactive);
	T_NEAR(vr.end - vr.start, 2.25, 1e-6);
	json_decref(a);

	/* An open run of an unknown client: no end, client_addr null. */
	memset(&r, 0, sizeof r);
	r.id = 3;
	r.start = 1700000000;
	a = run_json(&r);
	T_TRUE(json_is_null(json_object_get(a, "client_addr")));
	T_TRUE(json_object_get(a, "end") == NULL);
	T_TRUE(json_is_false(json_object_get(a, "ended")));
	json_decref(a);
	a = json_string("x");
	T_EQ_INT(run_load(a, &back), -1);
	json_decref(a);
}

/*
 * A run file as daemons before the typed run wrote it (client_seconds an
 * integer, the members in their order) reads back whole.
 */
static void
t_saved(void)
{
	static const char saved[] = "{\"id\": 12, \"client_addr\": "
	    "\"10.0.0.5\", \"ended\": true, \"retroactive\": true, "
	    "\"client_seconds\": 4, \"bytes\": 400000000, \"label\": "
	    "\"Finder copy\", \"protocol\": \"smb3\", \"interrupted\": true, "
	    "\"op\": \"write\", \"start\": 1765000000.5, \"end\": 1765000004.5, "
	    "\"clock_offset\": 0.25, \"transfers\": [40, 41]}";
	struct run_rec	 r;
	json_t		*o, *back;

	o = json_loads(saved, 0, NULL);
	T_EQ_INT(run_load(o, &r), 0);
	T_EQ_INT(r.id, 12);
	T_TRUE(r.retroactive && r.ended && !r.noticed && r.has_offset);
	T_EQ_U64(r.f.bytes, 400000000);
	T_NEAR(r.f.client_seconds, 4, 1e-9);
	T_EQ_STR(r.f.label, "Finder copy");
	T_TRUE((r.f.given & RUN_INTERRUPTED) != 0);
	T_EQ_INT(r.ntransfers, 2);
	T_EQ_INT(r.transfers[1], 41);
	back = run_json(&r);
	/* A number of seconds is written as a real, whatever it came as. */
	T_TRUE(json_is_real(json_object_get(back, "client_seconds")));
	json_object_set_new(o, "client_seconds", json_real(4));
	T_TRUE(json_equal(o, back));
	json_decref(back);
	json_decref(o);
}

static void
t_judged(void)
{
	struct run_judged	 j;
	json_t			*rep;

	rep = json_loads("{\"verdict\": {\"class\": \"cpu\", \"summary\": "
	    "\"cpu-bound: smbd\"}, \"client_rate\": 1.5e8, \"hints\": "
	    "[{\"kind\": \"smb_signing\"}, {\"kind\": \"mtu\"}], \"session\": "
	    "{\"dialect\": \"SMB3_11\", \"signing\": {\"degree\": \"full\"}, "
	    "\"encryption\": {\"degree\": \"none\"}}}", 0, NULL);
	run_judged_load(rep, &j);
	T_TRUE(j.judged && j.session && j.crypted);
	T_EQ_INT(j.o.cls, VERDICT_CPU);
	T_NEAR(j.o.client_rate, 1.5e8, 1);
	T_EQ_STR(j.o.summary, "cpu-bound: smbd");
	T_EQ_INT(j.o.nhint, 2);
	T_EQ_STR(j.o.hint[1], "mtu");
	T_EQ_STR(j.dialect, "SMB3_11");
	json_decref(rep);

	rep = json_loads("{\"verdict\": {\"class\": \"disk\"}, "
	    "\"client_rate\": null, \"session\": null}", 0, NULL);
	run_judged_load(rep, &j);
	T_TRUE(j.judged && !j.session && !j.crypted && isnan(j.o.client_rate));
	T_EQ_INT(j.o.cls, VERDICT_DISK);
	json_decref(rep);
	run_judged_load(NULL, &j);
	T_TRUE(!j.judged);
}

int
main(void)
{
	t_figures();
	t_admit();
	t_apply();
	t_place();
	t_dialect_size();
	t_round_trip();
	t_saved();
	t_judged();
	return (t_done());
}
