/*
 * tls.c: the client's side of TLS: one SSL_CTX, the daemon's certificate
 * checked against --cacert or pinned on first use in the known-hosts
 * file, the API's bufferevent and the data plane's sockets.
 *
 * Without --cacert, the certificate callback takes the leaf's fingerprint
 * and looks "HOST:PORT" up in the known-hosts file: a first contact is
 * accepted and pinned once the handshake is done; the pinned fingerprint
 * is accepted silently; another fails the handshake, before a token or a
 * byte of the request is sent.  The data plane's streams are threads:
 * the file and what this process pinned are read and written under one
 * lock, and the first-contact lines are printed by the main thread.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "client.h"
#include "tls.h"
#include "tls_fp.h"

#define TLS_SEEN_MAX	16	/* keys pinned or seen by this process */

/* A key this process found pinned or pinned itself, and its notice. */
struct tls_seen {
	char	key[TLS_KEY_SIZE];
	char	fp[TLS_FP_SIZE];
	int	said;		/* its notice printed, or none to print */
	char	note[TLS_WHY_SIZE];
};

static pthread_mutex_t	 tls_lock = PTHREAD_MUTEX_INITIALIZER;
static SSL_CTX		*tls_ctx;
static int		 tls_ex = -1;	/* the SSL's struct tls_peer */
static struct tls_seen	 tls_seen[TLS_SEEN_MAX];
static unsigned		 tls_nseen;

/* The known-hosts file, from the environment; see tls.h. */
int
tls_known_path(char *path, size_t pathsz, const char **errstr)
{
	const char	*env;
	int		 n;

	*errstr = NULL;
	if ((env = getenv("NASPERF_KNOWN_HOSTS")) != NULL && *env != '\0')
		n = snprintf(path, pathsz, "%s", env);
	else if ((env = getenv("XDG_CONFIG_HOME")) != NULL && *env == '/')
		n = snprintf(path, pathsz, "%s/nasperf/known_hosts", env);
	else if ((env = getenv("HOME")) != NULL && *env != '\0')
		n = snprintf(path, pathsz, "%s/.config/nasperf/known_hosts",
		    env);
	else {
		*errstr = "no known-hosts file: HOME is not set, nor "
		    "XDG_CONFIG_HOME or NASPERF_KNOWN_HOSTS";
		return (-1);
	}
	if (n < 0 || (size_t)n >= pathsz) {
		*errstr = "the known-hosts file's path is too long";
		return (-1);
	}
	return (0);
}

/* "HOST:PORT" or "[V6]:PORT". */
void
tls_known_key(char *key, size_t keysz, const char *host, unsigned port)
{
	args_hostport(key, keysz, host, port);
}

/*
 * Split a known-hosts line into its key and fingerprint, NUL-terminated
 * in place; -1 for a comment, a blank line or a malformed one.
 */
static int
tls_known_split(char *l, char **key, char **fp)
{
	size_t	n;

	l += strspn(l, " \t");
	if (*l == '#' || *l == '\0' || *l == '\r' || *l == '\n')
		return (-1);
	*key = l;
	if ((n = strcspn(l, " \t\r\n")) >= TLS_KEY_SIZE || l[n] == '\0')
		return (-1);
	l[n] = '\0';
	l += n + 1;
	l += strspn(l, " \t");
	*fp = l;
	n = strcspn(l, " \t\r\n");
	l[n] = '\0';
	if (n != TLS_FP_SIZE - 1 || strncmp(*fp, "SHA256:", 7) != 0)
		return (-1);
	return (0);
}

/* Look key up in the known-hosts file; see tls.h. */
int
tls_known_lookup(const char *path, const char *key, const char *fp,
    char *old, unsigned *line)
{
	FILE		*f;
	char		*l = NULL, *k, *v;
	size_t		 cap = 0;
	unsigned	 n = 0;
	int		 rc = TLS_KNOWN_ABSENT, oerrno;

	*line = 0;
	old[0] = '\0';
	if ((f = fopen(path, "re")) == NULL)
		return (errno == ENOENT ? TLS_KNOWN_ABSENT : -1);
	while (getline(&l, &cap, f) != -1) {
		n++;
		if (tls_known_split(l, &k, &v) == -1 ||
		    strcasecmp(k, key) != 0)
			continue;
		if (strcasecmp(v, fp) == 0) {
			rc = TLS_KNOWN_SAME;
			break;
		}
		if (rc == TLS_KNOWN_ABSENT) {
			rc = TLS_KNOWN_CHANGED;
			snprintf(old, TLS_FP_SIZE, "%s", v);
			*line = n;
		}
	}
	if (ferror(f))
		rc = -1;
	oerrno = errno;
	free(l);
	fclose(f);
	errno = oerrno;
	return (rc);
}

/* Make the directories leading to path, 0700 each; -1 with errno. */
static int
tls_known_mkdirs(const char *path)
{
	char	dir[PATH_MAX], *p;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	if ((p = strrchr(dir, '/')) == NULL || p == dir)
		return (0);
	*p = '\0';
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			return (-1);
		*p = '/';
	}
	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		return (-1);
	return (0);
}

/* Append a pin to the known-hosts file; see tls.h. */
int
tls_known_append(const char *path, const char *key, const char *fp)
{
	struct stat	 sb;
	char		 buf[TLS_KEY_SIZE + TLS_FP_SIZE + 4], last = '\n';
	int		 fd, n, rc = -1, oerrno;

	if (tls_known_mkdirs(path) == -1)
		return (-1);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0600)) == -1)
		return (-1);
	/* A file edited by hand may lack its last newline. */
	if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
		int	rfd = open(path, O_RDONLY | O_CLOEXEC);

		if (rfd == -1 || pread(rfd, &last, 1, sb.st_size - 1) != 1)
			last = '\n';
		if (rfd != -1)
			close(rfd);
	}
	n = snprintf(buf, sizeof buf, "%s%s %s\n", last == '\n' ? "" : "\n",
	    key, fp);
	errno = ENAMETOOLONG;
	if (n > 0 && (size_t)n < sizeof buf) {
		errno = EIO;	/* a short write sets none */
		if (write(fd, buf, (size_t)n) == n)
			rc = 0;
	}
	oerrno = errno;
	if (close(fd) == -1 && rc == 0) {
		oerrno = errno;
		rc = -1;
	}
	errno = oerrno;
	return (rc);
}

/* The seen entry of key, or NULL; with tls_lock held. */
static struct tls_seen *
tls_seen_find(const char *key)
{
	unsigned	i;

	for (i = 0; i < tls_nseen; i++)
		if (strcasecmp(tls_seen[i].key, key) == 0)
			return (&tls_seen[i]);
	return (NULL);
}

/* Remember key's fingerprint, with a notice to print (or NULL). */
static void
tls_seen_add(const char *key, const char *fp, const char *note)
{
	struct tls_seen	*s;

	if (tls_nseen == TLS_SEEN_MAX)
		return;
	s = &tls_seen[tls_nseen++];
	snprintf(s->key, sizeof s->key, "%s", key);
	snprintf(s->fp, sizeof s->fp, "%s", fp);
	snprintf(s->note, sizeof s->note, "%s", note != NULL ? note : "");
	s->said = note == NULL;
}

/*
 * Judge the leaf's fingerprint p->fp against the known-hosts file, with
 * tls_lock held: accept it (p->pin on first contact), or refuse it with
 * p->why set.
 */
static void
tls_judge(struct tls_peer *p)
{
	struct tls_seen	*s;
	const char	*errstr;
	char		 path[TLS_PATH_SIZE], old[TLS_FP_SIZE];
	unsigned	 line;
	int		 r;

	if ((s = tls_seen_find(p->key)) != NULL) {
		if (strcasecmp(s->fp, p->fp) == 0)
			return;
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "the TLS certificate changed "
		    "while nasperf ran: it is %s, it was %s", p->fp, s->fp);
		return;
	}
	if (tls_known_path(path, sizeof path, &errstr) == -1) {
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "cannot check the TLS "
		    "certificate %s: %s (set NASPERF_KNOWN_HOSTS, or give "
		    "--cacert)", p->fp, errstr);
		return;
	}
	switch ((r = tls_known_lookup(path, p->key, p->fp, old, &line))) {
	case TLS_KNOWN_SAME:
		tls_seen_add(p->key, p->fp, NULL);
		break;
	case TLS_KNOWN_ABSENT:
		p->pin = 1;
		break;
	case TLS_KNOWN_CHANGED:
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "the TLS certificate has "
		    "changed: it is %s, %s:%u pinned %s.  If the NAS's "
		    "certificate was replaced (nasperfd --rotate-certificate, "
		    "a new api.tls_certificate), compare nasperfd "
		    "--fingerprint there and delete that line; if not, "
		    "someone may be between you and the NAS", p->fp, path,
		    line, old);
		break;
	default:
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "cannot check the TLS "
		    "certificate %s: %s: %s", p->fp, path, strerror(errno));
		break;
	}
}

/*
 * The handshake is done: pin a first contact's fingerprint, unless
 * another stream did meanwhile, and leave its notice for tls_notices().
 */
static void
tls_pin(struct tls_peer *p)
{
	const char	*errstr;
	char		 path[TLS_PATH_SIZE], old[TLS_FP_SIZE];
	char		 note[TLS_WHY_SIZE];
	unsigned	 line;

	pthread_mutex_lock(&tls_lock);
	if (tls_seen_find(p->key) != NULL)
		goto out;
	if (tls_known_path(path, sizeof path, &errstr) == -1)
		goto out;	/* tls_judge() refused it */
	if (tls_known_lookup(path, p->key, p->fp, old, &line) ==
	    TLS_KNOWN_SAME) {
		tls_seen_add(p->key, p->fp, NULL);
		goto out;
	}
	if (tls_known_append(path, p->key, p->fp) == 0)
		snprintf(note, sizeof note, "%s port %u: first TLS contact: "
		    "pinned %s in %s (nasperfd --fingerprint on the NAS prints "
		    "the same)", p->host, p->port, p->fp, path);
	else
		snprintf(note, sizeof note, "%s port %u: first TLS contact: "
		    "%s, which could not be pinned in %s: %s (nasperfd "
		    "--fingerprint on the NAS prints the same)", p->host,
		    p->port, p->fp, path, strerror(errno));
	tls_seen_add(p->key, p->fp, note);
out:
	pthread_mutex_unlock(&tls_lock);
}

/* Print the first-contact notices not printed yet. */
void
tls_notices(void)
{
	unsigned	i;

	pthread_mutex_lock(&tls_lock);
	for (i = 0; i < tls_nseen; i++) {
		if (tls_seen[i].said)
			continue;
		tls_seen[i].said = 1;
		client_fail("%s", tls_seen[i].note);
	}
	pthread_mutex_unlock(&tls_lock);
}

/*
 * The certificate callback, instead of OpenSSL's own: with --cacert its
 * verification (chain, name or address) with the reason of a refusal
 * kept; else the leaf's fingerprint against the known-hosts file.
 */
static int
tls_verify_cb(X509_STORE_CTX *x, void *arg NP_UNUSED)
{
	SSL		*ssl;
	struct tls_peer	*p;
	X509		*leaf;

	ssl = X509_STORE_CTX_get_ex_data(x,
	    SSL_get_ex_data_X509_STORE_CTX_idx());
	if (ssl == NULL || (p = SSL_get_ex_data(ssl, tls_ex)) == NULL)
		return (0);
	if ((leaf = X509_STORE_CTX_get0_cert(x)) == NULL ||
	    tls_fingerprint(leaf, p->fp, sizeof p->fp) == -1) {
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "the TLS certificate cannot "
		    "be read");
		return (0);
	}
	if (p->cacert != NULL) {
		if (X509_verify_cert(x) == 1)
			return (1);
		p->refused = 1;
		snprintf(p->why, sizeof p->why, "the TLS certificate %s does "
		    "not verify against the CAs of %s: %s", p->fp, p->cacert,
		    X509_verify_cert_error_string(X509_STORE_CTX_get_error(x)));
		return (0);
	}
	pthread_mutex_lock(&tls_lock);
	tls_judge(p);
	pthread_mutex_unlock(&tls_lock);
	if (p->refused) {
		X509_STORE_CTX_set_error(x,
		    X509_V_ERR_APPLICATION_VERIFICATION);
		return (0);
	}
	return (1);
}

/* The handshake's end: note it, and pin a first contact. */
static void
tls_info_cb(const SSL *ssl, int where, int ret NP_UNUSED)
{
	struct tls_peer	*p;

	if ((where & SSL_CB_HANDSHAKE_DONE) == 0 ||
	    (p = SSL_get_ex_data(ssl, tls_ex)) == NULL)
		return;
	p->done = 1;
	if (p->pin) {
		p->pin = 0;
		tls_pin(p);
	}
}

/* OpenSSL's reason for error e, or what to say without one. */
static const char *
tls_reason(unsigned long e, const char *none)
{
	const char	*r;

	if (e == 0 || (r = ERR_reason_error_string(e)) == NULL)
		return (none);
	return (r);
}

/*
 * The process's SSL_CTX, made at the first call with cacert's CAs; NULL
 * with why set.  With tls_lock held.
 */
static SSL_CTX *
tls_ctx_get(const char *cacert, char *why, size_t whysz)
{
	SSL_CTX	*ctx;

	if (tls_ctx != NULL)
		return (tls_ctx);
	if (cacert != NULL && access(cacert, R_OK) == -1) {
		snprintf(why, whysz, "--cacert %s: %s", cacert,
		    strerror(errno));
		return (NULL);
	}
	ERR_clear_error();
	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL ||
	    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1 ||
	    (tls_ex == -1 && (tls_ex = SSL_get_ex_new_index(0, NULL, NULL,
	    NULL, NULL)) == -1)) {
		snprintf(why, whysz, "cannot set TLS up: %s",
		    tls_reason(ERR_get_error(), "out of memory"));
		SSL_CTX_free(ctx);
		return (NULL);
	}
	if (cacert != NULL &&
	    SSL_CTX_load_verify_locations(ctx, cacert, NULL) != 1) {
		snprintf(why, whysz, "--cacert %s: no CA certificates read: %s",
		    cacert, tls_reason(ERR_get_error(), "none in it"));
		SSL_CTX_free(ctx);
		return (NULL);
	}
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
	/* A stream that ends without close_notify ends, as a plain one. */
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	SSL_CTX_set_cert_verify_callback(ctx, tls_verify_cb, NULL);
	SSL_CTX_set_info_callback(ctx, tls_info_cb);
	return (tls_ctx = ctx);
}

/*
 * A client SSL to c->host at port, verified as c says, p its state; NULL
 * with p->why set.
 */
static SSL *
tls_ssl_new(const struct client *c, unsigned port, struct tls_peer *p)
{
	X509_VERIFY_PARAM	*vp;
	SSL_CTX			*ctx;
	SSL			*ssl;
	unsigned char		 addr[16];
	int			 ip;

	memset(p, 0, sizeof *p);
	snprintf(p->host, sizeof p->host, "%s", c->host);
	p->port = port;
	p->cacert = c->cacert;
	tls_known_key(p->key, sizeof p->key, c->host, port);
	ip = inet_pton(AF_INET, c->host, addr) == 1 ||
	    inet_pton(AF_INET6, c->host, addr) == 1;

	pthread_mutex_lock(&tls_lock);
	ctx = tls_ctx_get(c->cacert, p->why, sizeof p->why);
	pthread_mutex_unlock(&tls_lock);
	if (ctx == NULL)
		return (NULL);
	if ((ssl = SSL_new(ctx)) == NULL)
		goto fail;
	SSL_set_ex_data(ssl, tls_ex, p);
	if (!ip && SSL_set_tlsext_host_name(ssl, c->host) != 1)
		goto fail;
	if (c->cacert != NULL) {
		vp = SSL_get0_param(ssl);
		X509_VERIFY_PARAM_set_hostflags(vp,
		    X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
		if ((ip ? X509_VERIFY_PARAM_set1_ip_asc(vp, c->host) :
		    X509_VERIFY_PARAM_set1_host(vp, c->host, 0)) != 1)
			goto fail;
	}
	return (ssl);
fail:
	snprintf(p->why, sizeof p->why, "cannot set TLS up: %s",
	    tls_reason(ERR_get_error(), "out of memory"));
	SSL_free(ssl);
	return (NULL);
}

/* A TLS bufferevent to the API; see tls.h. */
struct bufferevent *
tls_bufferevent_new(struct event_base *base, const struct client *c,
    struct tls_peer *p)
{
	struct bufferevent	*bev;
	SSL			*ssl;

	if ((ssl = tls_ssl_new(c, c->port, p)) == NULL)
		return (NULL);
	bev = bufferevent_openssl_socket_new(base, -1, ssl,
	    BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE |
	    BEV_OPT_DEFER_CALLBACKS);
	if (bev == NULL) {
		SSL_free(ssl);
		snprintf(p->why, sizeof p->why, "out of memory");
		return (NULL);
	}
	/* nasperfd, as most servers, may close without close_notify. */
	bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return (bev);
}

/* Whether TLS is why the connection failed; see tls.h. */
int
tls_failed(struct tls_peer *p, struct bufferevent *bev)
{
	unsigned long	e = 0, last;

	if (p->refused)
		return (1);
	if (p->done)
		return (0);
	/* The first error is the cause; the rest its consequences. */
	while (bev != NULL && (last = bufferevent_get_openssl_error(bev)) != 0)
		if (e == 0)
			e = last;
	snprintf(p->why, sizeof p->why, "TLS handshake failed: %s",
	    tls_reason(e, "the connection closed"));
	return (1);
}

/* TLS on a data-plane socket; see tls.h. */
int
tls_io_start(struct tls_io *io, const struct client *c, unsigned port)
{
	int	rc = -1, err;

	io->err[0] = '\0';
	if ((io->ssl = tls_ssl_new(c, port, &io->peer)) == NULL) {
		snprintf(io->err, sizeof io->err, "%s", io->peer.why);
		return (-1);
	}
	ERR_clear_error();
	if (SSL_set_fd(io->ssl, io->fd) == 1 &&
	    (rc = SSL_connect(io->ssl)) == 1)
		return (0);
	if (io->peer.refused) {
		snprintf(io->err, sizeof io->err, "%s", io->peer.why);
		return (-1);
	}
	err = SSL_get_error(io->ssl, rc);
	snprintf(io->err, sizeof io->err, "TLS handshake failed: %s",
	    err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE ?
	    "no answer within the timeout" : err == SSL_ERROR_SYSCALL &&
	    errno != 0 ? strerror(errno) : tls_reason(ERR_get_error(),
	    "the connection closed"));
	return (-1);
}

/*
 * What a failed SSL_read or SSL_write (ret) means, as -1 with errno, or
 * 0 at the end of the stream.
 */
static ssize_t
tls_io_error(struct tls_io *io, int ret)
{
	int	oerrno = errno;

	switch (SSL_get_error(io->ssl, ret)) {
	case SSL_ERROR_ZERO_RETURN:
		return (0);
	case SSL_ERROR_WANT_READ:
	case SSL_ERROR_WANT_WRITE:
		/* SO_RCVTIMEO or SO_SNDTIMEO, as recv(2) says it. */
		errno = oerrno == EINTR ? EINTR : EAGAIN;
		return (-1);
	case SSL_ERROR_SYSCALL:
		if (oerrno == 0)
			return (0);
		errno = oerrno;
		return (-1);
	default:
		snprintf(io->err, sizeof io->err, "TLS: %s",
		    tls_reason(ERR_get_error(), "protocol error"));
		errno = EPROTO;
		return (-1);
	}
}

/*
 * SSL_write (wr) or SSL_read of up to len bytes: as send(2) or recv(2)
 * say it, a write's end of the stream EPIPE.
 */
static ssize_t
tls_io_ssl(struct tls_io *io, void *buf, size_t len, int wr)
{
	ssize_t	r;
	int	n;

	if (len > INT_MAX)
		len = INT_MAX;
	ERR_clear_error();
	errno = 0;
	n = wr ? SSL_write(io->ssl, buf, (int)len) : SSL_read(io->ssl, buf,
	    (int)len);
	if (n > 0)
		return (n);
	if ((r = tls_io_error(io, n)) == 0 && wr) {
		errno = EPIPE;
		return (-1);
	}
	return (r);
}

/* send(2), or SSL_write with TLS. */
ssize_t
tls_io_send(struct tls_io *io, const void *buf, size_t len)
{
	if (io->ssl == NULL)
		return (send(io->fd, buf, len, 0));
	return (tls_io_ssl(io, (void *)(uintptr_t)buf, len, 1));
}

/* recv(2), or SSL_read with TLS. */
ssize_t
tls_io_recv(struct tls_io *io, void *buf, size_t len)
{
	if (io->ssl == NULL)
		return (recv(io->fd, buf, len, 0));
	return (tls_io_ssl(io, buf, len, 0));
}

/* What the last failure means. */
const char *
tls_io_strerror(const struct tls_io *io)
{
	if (errno == EPROTO && io->err[0] != '\0')
		return (io->err);
	return (strerror(errno));
}

/* End the sending half. */
void
tls_io_shutdown(struct tls_io *io)
{
	if (io->ssl != NULL) {
		ERR_clear_error();
		(void)SSL_shutdown(io->ssl);
	}
	(void)shutdown(io->fd, SHUT_WR);
}

/* Free the TLS state, close the socket. */
void
tls_io_close(struct tls_io *io)
{
	SSL_free(io->ssl);
	io->ssl = NULL;
	if (io->fd != -1)
		close(io->fd);
	io->fd = -1;
}
