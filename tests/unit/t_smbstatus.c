/*
 * t_smbstatus.c: smbstatus's sessions, from real output: Debian 12's
 * Samba 4.17.12 "smbstatus -b --json" and "-b" for one signed SMB3_11
 * session, and an Unraid 4.17.12 table whose columns do not line up; the
 * JSON variants (sessions as an array, a vnn:pid, crypto as text), the
 * address forms, and garbage; and why a child such as smbstatus failed.
 */
#include "config.h"

#include <sys/wait.h>

#include <signal.h>
#include <stdlib.h>

#include "test.h"
#include "child.h"
#include "encode.h"
#include "smbsess.h"
#include "smbstatus.h"

/* The Debian session, as either form gives it. */
static void
check_debian(const struct smbstatus *st, int json)
{
	const struct smbstatus_session	*s = &st->v[0];
	char				 t[64];

	T_EQ_INT(st->n, 1);
	if (st->n != 1)
		return;
	T_EQ_STR(st->version, "4.17.12-Debian");
	T_EQ_INT(s->pid, 7909);
	T_EQ_STR(s->user, "npcap");
	T_EQ_STR(s->group, "npcap");
	T_EQ_STR(s->machine, "127.0.0.1");
	T_EQ_STR(s->address, "127.0.0.1");
	T_EQ_STR(s->dialect, "SMB3_11");
	T_EQ_INT(s->signing.degree, SMBSTATUS_FULL);
	T_EQ_STR(s->signing.cipher, "AES-128-GMAC");
	T_EQ_INT(s->encryption.degree, SMBSTATUS_NONE);
	T_EQ_STR(s->encryption.cipher, "");
	smbstatus_crypto_text(&s->signing, t, sizeof t);
	T_EQ_STR(t, "AES-128-GMAC");
	smbstatus_crypto_text(&s->encryption, t, sizeof t);
	T_EQ_STR(t, "-");
	(void)json;
}

/* Why a child failed, by its wait status, as smbsess.c and zpool.c say. */
static void
check_child_failure(void)
{
	char	why[128];
	int	status;

	T_EQ_INT(child_failure("smbstatus", 0, 0, 0, why, sizeof why), 0);
	status = 2 << 8;	/* exited 2 */
	T_EQ_INT(child_failure("smbstatus", status, 0, 0, why, sizeof why), 1);
	T_EQ_STR(why, "smbstatus exited with status 2");
	status = SIGKILL;	/* killed, as child.c does past its time */
	T_EQ_INT(child_failure("zpool status", status, 0, 4096, why,
	    sizeof why), 1);
	T_EQ_STR(why, "zpool status was killed by signal 9 (it took too long)");
	T_EQ_INT(child_failure("zpool iostat -vlpy", status, 1, 4194304, why,
	    sizeof why), 1);
	T_EQ_STR(why, "zpool iostat -vlpy printed more than 4194304 bytes");
}

int
main(void)
{
	struct smbstatus	 st;
	const char		*err = NULL;
	char			*buf, a[SMBSTATUS_ADDR_MAX];
	size_t			 len;
	json_t			*o;

	check_child_failure();
	smbstatus_init(&st);

	buf = t_fixture("smbstatus/debian-4.17.12-b.json", &len);
	T_OK(smbsess_parse_json(buf, len, &st, &err));
	check_debian(&st, 1);
	free(buf);

	buf = t_fixture("smbstatus/debian-4.17.12-b.txt", &len);
	T_OK(smbstatus_parse_text(buf, len, &st, &err));
	check_debian(&st, 0);
	free(buf);

	/* Unraid: three sessions of one smbd, partial signing only. */
	buf = t_fixture("smbstatus/unraid-4.17.12-L.txt", &len);
	T_OK(smbstatus_parse_text(buf, len, &st, &err));
	T_EQ_INT(st.n, 3);
	if (st.n == 3) {
		T_EQ_INT(st.v[0].pid, 6980);
		T_EQ_STR(st.v[1].user, "user2");
		T_EQ_STR(st.v[2].address, "192.0.2.103");
		T_EQ_STR(st.v[0].dialect, "SMB3_00");
		T_EQ_INT(st.v[0].signing.degree, SMBSTATUS_PARTIAL);
		T_EQ_STR(st.v[0].signing.cipher, "AES-128-CMAC");
		T_EQ_INT(st.v[0].encryption.degree, SMBSTATUS_NONE);
	}
	T_EQ_STR(st.version, "4.17.12");
	free(buf);

	/* The pre-release JSON layout: an array, vnn:pid, text crypto. */
	static const char draft[] = "{\"sessions\": [{\"server_id\": "
	    "{\"pid\": \"0:79204\"}, \"hostname\": \"ipv6:2001:db8::7:50112\","
	    " \"session_dialect\": \"SMB3_11\", \"signing\": \"partial("
	    "AES-128-CMAC)\", \"encryption\": \"AES-128-GCM\"}, {\"pid\": 12,"
	    " \"remote_machine\": \"::ffff:192.0.2.9\"}, 7]}";
	T_OK(smbsess_parse_json(draft, sizeof draft - 1, &st, &err));
	T_EQ_INT(st.n, 2);
	T_EQ_INT(st.skipped, 1);
	if (st.n == 2) {
		T_EQ_INT(st.v[0].pid, 79204);
		T_EQ_STR(st.v[0].address, "2001:db8::7");
		T_EQ_INT(st.v[0].signing.degree, SMBSTATUS_PARTIAL);
		T_EQ_INT(st.v[0].encryption.degree, SMBSTATUS_FULL);
		T_EQ_STR(st.v[0].encryption.cipher, "AES-128-GCM");
		T_EQ_INT(st.v[1].pid, 12);
		T_EQ_STR(st.v[1].address, "192.0.2.9");
		T_EQ_INT(st.v[1].signing.degree, SMBSTATUS_UNKNOWN);
	}

	/* No sessions is a listing; garbage is not. */
	T_OK(smbsess_parse_json("{\"sessions\": {}}", 16, &st, &err));
	T_EQ_INT(st.n, 0);
	T_ERRNO(smbsess_parse_json("{\"version\": \"4.17\"}", 19, &st, &err),
	    EINVAL);
	T_EQ_STR(err, "no \"sessions\" in the JSON");
	T_ERRNO(smbsess_parse_json("{\"sessions\": {", 14, &st, &err), EINVAL);
	T_EQ_STR(err, "malformed JSON");
	T_ERRNO(smbsess_parse_json("[1]", 3, &st, &err), EINVAL);
	T_ERRNO(smbstatus_parse_text("no table here\n", 14, &st, &err),
	    EINVAL);
	T_EQ_STR(err, "no session table");
	T_ERRNO(smbstatus_parse_text("PID\0x", 5, &st, &err), EINVAL);

	/* Addresses as Samba and as sockets write them. */
	T_OK(smbstatus_address("ipv4:192.0.2.7:50112", a, sizeof a));
	T_EQ_STR(a, "192.0.2.7");
	T_OK(smbstatus_address("ipv6:2001:db8::7:445", a, sizeof a));
	T_EQ_STR(a, "2001:db8::7");
	T_OK(smbstatus_address("[2001:db8::7]:445", a, sizeof a));
	T_EQ_STR(a, "2001:db8::7");
	T_OK(smbstatus_address("192.0.2.7:445", a, sizeof a));
	T_EQ_STR(a, "192.0.2.7");
	T_TRUE(smbstatus_address("nas.example", a, sizeof a) == -1);
	T_TRUE(smbstatus_same_address("::ffff:192.0.2.7", "192.0.2.7"));
	T_TRUE(!smbstatus_same_address("192.0.2.7", "192.0.2.8"));

	/* A session as the API shows it. */
	buf = t_fixture("smbstatus/debian-4.17.12-b.json", &len);
	T_OK(smbsess_parse_json(buf, len, &st, &err));
	free(buf);
	if (st.n == 1 && (o = enc_smb_session(&st.v[0])) != NULL) {
		T_EQ_INT(json_integer_value(json_object_get(o, "pid")), 7909);
		T_EQ_STR(json_string_value(json_object_get(json_object_get(o,
		    "signing"), "degree")), "full");
		T_TRUE(json_is_null(json_object_get(json_object_get(o,
		    "encryption"), "cipher")));
		json_decref(o);
	} else
		T_TRUE(0);
	smbstatus_clear(&st);
	return (t_done());
}
