/*
 * t_tlspin.c: the client's known-hosts file, as it pins the daemon's TLS
 * certificate on first use: where it is, a key for a name and for an
 * IPv6 address, a lookup absent, the same or changed (with its line),
 * comments, blank and malformed lines, an append that makes the
 * directory 0700 and the file 0600; and a certificate's fingerprint as
 * openssl x509 -fingerprint -sha256 prints it.
 */
#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#include "test.h"
#include "client.h"
#include "tls.h"
#include "tls_fp.h"

/* openssl req -x509 -newkey ec (P-256) -subj /CN=localhost. */
static const char t_pem[] =
"-----BEGIN CERTIFICATE-----\n"
"MIIBmjCCAT+gAwIBAgIUajRkYLhfnRYpjCNE5hIEXyOoQI0wCgYIKoZIzj0EAwIw\n"
"FDESMBAGA1UEAwwJbG9jYWxob3N0MB4XDTI2MTIwNzAzMDEyNVoXDTI2MTIwODAz\n"
"MDEyNVowFDESMBAGA1UEAwwJbG9jYWxob3N0MFkwEwYHKoZIzj0CAQYIKoZIzj0D\n"
"AQcDQgAEXZNujAoCN+YtwOtlZZV2yjIzoWRAe0Cj9YPyJvcznPbCI+OjjUKRsD2w\n"
"R5ZmDjEYKVH4n5+ix2SQ3wB1foHYraNvMG0wHQYDVR0OBBYEFM4+wVTS5zSi5CkE\n"
"0JOyp0TkV9imMB8GA1UdIwQYMBaAFM4+wVTS5zSi5CkE0JOyp0TkV9imMA8GA1Ud\n"
"EwEB/wQFMAMBAf8wGgYDVR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MAoGCCqGSM49\n"
"BAMCA0kAMEYCIQDvUVd6CZXEBzvgH43ei1DOmtFl1s4cubOXpcCLLmWG/QIhAJ2V\n"
"sexDcwEEqv8HPC4ZG1v9bTSBq1G//WUk+LO0PZ1I\n"
"-----END CERTIFICATE-----\n";
/* Its fingerprint, as openssl x509 -noout -fingerprint -sha256 says. */
#define T_PEM_FP	"SHA256:86:FB:AB:7F:5F:78:15:6B:A7:6E:FC:61:F8:E0:" \
			    "18:13:44:97:48:B1:0E:24:D4:63:52:01:50:66:89:63:" \
			    "8C:6A"

#define T_FP_A	"SHA256:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:" \
		    "AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA:AA"
#define T_FP_B	"SHA256:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:" \
		    "BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB:BB"

static char	t_dir[256];

/* Write text to path, replacing it. */
static void
t_write(const char *path, const char *text)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* The whole of a small file, or "" (static). */
static const char *
t_read(const char *path)
{
	static char	 buf[4096];
	FILE		*f;
	size_t		 n = 0;

	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return (buf);
}

/* Where the file is: NASPERF_KNOWN_HOSTS, XDG_CONFIG_HOME, HOME, none. */
static void
t_path(void)
{
	const char	*errstr;
	char		 p[TLS_PATH_SIZE];

	setenv("NASPERF_KNOWN_HOSTS", "/x/kh", 1);
	setenv("XDG_CONFIG_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	T_OK(tls_known_path(p, sizeof p, &errstr));
	T_EQ_STR(p, "/x/kh");
	unsetenv("NASPERF_KNOWN_HOSTS");
	T_OK(tls_known_path(p, sizeof p, &errstr));
	T_EQ_STR(p, "/xdg/nasperf/known_hosts");
	unsetenv("XDG_CONFIG_HOME");
	T_OK(tls_known_path(p, sizeof p, &errstr));
	T_EQ_STR(p, "/home/u/.config/nasperf/known_hosts");
	unsetenv("HOME");
	errstr = NULL;
	T_EQ_INT(tls_known_path(p, sizeof p, &errstr), -1);
	T_TRUE(errstr != NULL && strstr(errstr, "HOME is not set") != NULL &&
	    strstr(errstr, "NASPERF_KNOWN_HOSTS") != NULL);
	/* A relative XDG_CONFIG_HOME is not one (XDG says: ignore it). */
	setenv("XDG_CONFIG_HOME", "rel", 1);
	T_EQ_INT(tls_known_path(p, sizeof p, &errstr), -1);
	unsetenv("XDG_CONFIG_HOME");
}

/* The keys: HOST:PORT, [V6]:PORT. */
static void
t_key(void)
{
	char	k[TLS_KEY_SIZE];

	tls_known_key(k, sizeof k, "nas.example", 9631);
	T_EQ_STR(k, "nas.example:9631");
	tls_known_key(k, sizeof k, "192.0.2.7", 9632);
	T_EQ_STR(k, "192.0.2.7:9632");
	tls_known_key(k, sizeof k, "fe80::1", 9631);
	T_EQ_STR(k, "[fe80::1]:9631");
}

/* First contact: no file, then an append that makes it, 0700 and 0600. */
static void
t_append(void)
{
	struct stat	 sb;
	char		 path[512], dir[400], old[TLS_FP_SIZE];
	unsigned	 line = 99;

	snprintf(dir, sizeof dir, "%s/home/.config/nasperf", t_dir);
	snprintf(path, sizeof path, "%s/known_hosts", dir);
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_A, old, &line),
	    TLS_KNOWN_ABSENT);
	T_EQ_INT(line, 0);
	T_OK(tls_known_append(path, "nas:9631", T_FP_A));
	T_TRUE(stat(dir, &sb) == 0 && (sb.st_mode & 07777) == 0700);
	T_TRUE(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0600);
	T_EQ_STR(t_read(path), "nas:9631 " T_FP_A "\n");
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_A, old, &line),
	    TLS_KNOWN_SAME);
	/* The same host on another port is another key. */
	T_EQ_INT(tls_known_lookup(path, "nas:9632", T_FP_A, old, &line),
	    TLS_KNOWN_ABSENT);
	T_OK(tls_known_append(path, "nas:9632", T_FP_A));
	T_EQ_STR(t_read(path), "nas:9631 " T_FP_A "\nnas:9632 " T_FP_A "\n");
	T_EQ_INT(tls_known_lookup(path, "nas:9632", T_FP_B, old, &line),
	    TLS_KNOWN_CHANGED);
	T_EQ_INT(line, 2);
	T_EQ_STR(old, T_FP_A);
}

/* Comments, blank lines, garbage; a change names its line; IPv6 keys. */
static void
t_lookup(void)
{
	char		path[512], old[TLS_FP_SIZE];
	unsigned	line;

	snprintf(path, sizeof path, "%s/kh", t_dir);
	t_write(path,
	    "# nasperf's pins\n"
	    "\n"
	    "   \t\n"
	    "nas:9631\n"
	    "nas:9631 SHA256:AA:AA\n"
	    "nas:9631 not-a-fingerprint-at-all\n"
	    "garbage\n"
	    "  nas:9631 " T_FP_A "  trailing words\n"
	    "[fe80::1]:9631 " T_FP_B "\n"
	    "# nas:9631 " T_FP_B "\n");
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_A, old, &line),
	    TLS_KNOWN_SAME);
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_B, old, &line),
	    TLS_KNOWN_CHANGED);
	T_EQ_INT(line, 8);
	T_EQ_STR(old, T_FP_A);
	/* Names are case-insensitive; fingerprints' hex too. */
	T_EQ_INT(tls_known_lookup(path, "NAS:9631", T_FP_A, old, &line),
	    TLS_KNOWN_SAME);
	T_EQ_INT(tls_known_lookup(path, "[fe80::1]:9631",
	    "sha256:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:"
	    "bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb:bb", old, &line),
	    TLS_KNOWN_SAME);
	T_EQ_INT(tls_known_lookup(path, "[fe80::1]:9631", T_FP_A, old,
	    &line), TLS_KNOWN_CHANGED);
	T_EQ_INT(line, 9);
	T_EQ_STR(old, T_FP_B);
	T_EQ_INT(tls_known_lookup(path, "fe80::1:9631", T_FP_B, old, &line),
	    TLS_KNOWN_ABSENT);
	/* A pin elsewhere for the key: any line with this one will do. */
	t_write(path, "nas:9631 " T_FP_B "\nnas:9631 " T_FP_A "\n");
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_A, old, &line),
	    TLS_KNOWN_SAME);
	/* A file edited by hand without its last newline. */
	t_write(path, "# hand-edited");
	T_OK(tls_known_append(path, "nas:1", T_FP_A));
	T_EQ_STR(t_read(path), "# hand-edited\nnas:1 " T_FP_A "\n");
	/* A file that cannot be read is an error, not a first contact. */
	snprintf(path, sizeof path, "%s", t_dir);
	T_EQ_INT(tls_known_lookup(path, "nas:9631", T_FP_A, old, &line), -1);
}

/* A certificate's fingerprint, as openssl x509 -fingerprint prints it. */
static void
t_fingerprint(void)
{
	BIO	*b;
	X509	*x;
	char	 fp[TLS_FP_SIZE], small[TLS_FP_SIZE - 1];

	b = BIO_new_mem_buf(t_pem, -1);
	x = b != NULL ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
	if (!T_TRUE(x != NULL)) {
		BIO_free(b);
		return;
	}
	T_OK(tls_fingerprint(x, fp, sizeof fp));
	T_EQ_STR(fp, T_PEM_FP);
	T_EQ_INT(strlen(fp), TLS_FP_SIZE - 1);
	T_EQ_INT(tls_fingerprint(x, small, sizeof small), -1);
	X509_free(x);
	BIO_free(b);
}

/* Remove the test's directory, as deep as the test makes it. */
static void
t_cleanup(void)
{
	char	cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t_dir);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", t_dir);
}

int
main(void)
{
	const char	*tmp = getenv("TMPDIR");

	snprintf(t_dir, sizeof t_dir, "%s/t_tlspin.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(t_dir) == NULL) {
		printf("Bail out! mkdtemp %s: %s\n", t_dir, strerror(errno));
		return (1);
	}
	umask(022);
	t_path();
	t_key();
	t_append();
	t_lookup();
	t_fingerprint();
	t_cleanup();
	return (t_done());
}
