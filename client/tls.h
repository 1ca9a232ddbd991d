/*
 * tls.h: the client's side of TLS.  One SSL_CTX a process (TLS 1.2 at
 * least); the daemon's certificate is verified against the CAs of
 * --cacert, or else pinned on first use in a known-hosts file, as ssh
 * pins host keys: "HOST:PORT SHA256:AB:CD:..." a line.  The API speaks it
 * through a bufferevent, the data plane's streams through struct tls_io.
 */
#ifndef CLIENT_TLS_H
#define CLIENT_TLS_H

#include <sys/types.h>

#include <stddef.h>

#include "tls_fp.h"

struct bufferevent;
struct client;
struct event_base;
struct ssl_st;

#define TLS_KEY_SIZE	300	/* "[V6]:PORT" and a NUL */
#define TLS_PATH_SIZE	1024	/* the known-hosts file's path */
#define TLS_WHY_SIZE	2048	/* a refusal, said in full */

/* What tls_known_lookup() found for a key. */
#define TLS_KNOWN_ABSENT	0	/* no line: first contact */
#define TLS_KNOWN_SAME		1	/* a line with this fingerprint */
#define TLS_KNOWN_CHANGED	2	/* lines, none with this fingerprint */

/*
 * One connection's verification, filled in during its handshake: the
 * leaf's fingerprint, whether it is to be pinned, and why it was refused.
 * Borrowed by the SSL: it must outlive it.
 */
struct tls_peer {
	char		 host[256];
	unsigned	 port;
	const char	*cacert;		/* borrowed; NULL: pinning */
	char		 key[TLS_KEY_SIZE];	/* in the known-hosts file */
	char		 fp[TLS_FP_SIZE];	/* the leaf's, once seen */
	int		 pin;		/* first contact: pin when done */
	int		 done;		/* the handshake succeeded */
	int		 refused;	/* the certificate was: why says */
	char		 why[TLS_WHY_SIZE];
};

/* A data-plane socket, plain (ssl NULL) or with TLS. */
struct tls_io {
	int		 fd;
	struct ssl_st	*ssl;
	char		 err[TLS_WHY_SIZE];	/* a TLS error, said */
	struct tls_peer	 peer;
};

/*
 * The known-hosts file: $NASPERF_KNOWN_HOSTS, else
 * $XDG_CONFIG_HOME/nasperf/known_hosts, else
 * $HOME/.config/nasperf/known_hosts, into path; -1 with *errstr (static)
 * when none can be named.
 */
int	tls_known_path(char *path, size_t pathsz, const char **errstr);
/* The key of host and port: "HOST:PORT", or "[V6]:PORT". */
void	tls_known_key(char *key, size_t keysz, const char *host,
	    unsigned port);
/*
 * Look key up with fingerprint fp in the file at path (comments, blank
 * lines and malformed lines ignored; a missing file holds nothing):
 * TLS_KNOWN_*, or -1 with errno.  TLS_KNOWN_CHANGED puts the first
 * line's fingerprint in old (TLS_FP_SIZE bytes) and its number in *line.
 */
int	tls_known_lookup(const char *path, const char *key, const char *fp,
	    char *old, unsigned *line);
/*
 * Append "key fp" to the file at path, made 0600 in a directory made
 * 0700 when missing; -1 with errno.
 */
int	tls_known_append(const char *path, const char *key, const char *fp);

/*
 * A TLS bufferevent to the API of c (c->host, c->port; SNI for a name)
 * for evhttp, verified as c says; NULL with p->why set.  It frees its SSL.
 */
struct bufferevent *tls_bufferevent_new(struct event_base *,
	    const struct client *c, struct tls_peer *p);
/*
 * Whether TLS is why a connection through bev (NULL: none made) failed:
 * 1 with p->why set, the certificate refused (p->refused) or the
 * handshake failed; 0 when the handshake had succeeded.
 */
int	tls_failed(struct tls_peer *p, struct bufferevent *bev);
/*
 * Print what first contacts pinned since the last call, each once, as
 * client_fail() prints; from the main thread only.
 */
void	tls_notices(void);

/*
 * TLS on io->fd, a connected blocking socket, to c->host at port: the
 * handshake within the socket's timeouts; -1 with io->err set.
 */
int	tls_io_start(struct tls_io *io, const struct client *c,
	    unsigned port);
/* send(2) or SSL_write: bytes sent, or -1 with errno (EPROTO: io->err). */
ssize_t	tls_io_send(struct tls_io *io, const void *buf, size_t len);
/*
 * recv(2) or SSL_read: bytes read, 0 at the end of the stream, or -1 with
 * errno (EAGAIN after SO_RCVTIMEO; EPROTO: io->err).
 */
ssize_t	tls_io_recv(struct tls_io *io, void *buf, size_t len);
/* What the last -1 of tls_io_send() or tls_io_recv() means. */
const char *tls_io_strerror(const struct tls_io *io);
/* End the sending half: close_notify with TLS, then shutdown(2). */
void	tls_io_shutdown(struct tls_io *io);
/* Free the TLS state and close the socket. */
void	tls_io_close(struct tls_io *io);

#endif /* CLIENT_TLS_H */
