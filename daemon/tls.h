/*
 * tls.h: the certificate both listeners may speak TLS with (api.tls,
 * synth.tls): the configured one, or one made on first start in the state
 * directory, as the tokens are.
 */
#ifndef TLS_H
#define TLS_H

#include <stddef.h>

#include "tls_fp.h"

struct bufferevent;
struct daemon;
struct ssl_ctx_st;

#define TLS_CERT	"tls.crt"	/* in the state directory */
#define TLS_KEY		"tls.key"

/*
 * Build the server context of d's configuration into d->tls_ctx, or none
 * when neither api.tls nor synth.tls is on: the configured certificate
 * and key, or STATE/tls.crt and tls.key, made when missing.  A context in
 * use is kept until the new one is whole; -1 with an allocated *cause.
 */
int	tls_init(struct daemon *, char **cause);
/*
 * A bufferevent that speaks TLS as a server over fd (-1: set later, as
 * evhttp does) with d->tls_ctx, or NULL; a peer that closes without
 * TLS's close_notify is an end of file, not an error.
 */
struct bufferevent *tls_server_bev(struct daemon *, int fd, int options);
/*
 * Log at debug level what OpenSSL said of bev's failure (a handshake a
 * plain client broke, a certificate the client refused), for peer on what
 * ("api", "synth").
 */
void	tls_log_errors(struct bufferevent *bev, const char *peer,
	    const char *what);
/*
 * The certificate and key paths of d's configuration (each sz bytes): the
 * configured ones, else the state directory's.
 */
void	tls_paths(const struct daemon *, char *cert, char *key, size_t sz);
/* Free d->tls_ctx. */
void	tls_shutdown(struct daemon *);
/*
 * A new self-signed certificate and key in dir (what --rotate-certificate
 * does, and tls_init on first start); its fingerprint into fp.
 */
int	tls_make(const char *dir, char *fp, size_t fpsz, char **cause);
/*
 * The SHA-256 fingerprint of the PEM certificate in path, as openssl x509
 * -fingerprint -sha256 prints it after "SHA256:"; -1 with *cause.
 */
int	tls_file_fingerprint(const char *path, char *fp, size_t fpsz,
	    char **cause);

#endif /* TLS_H */
