/*
 * tls.c: the server side of TLS on the API and the data plane.
 *
 * One SSL_CTX serves both listeners.  Its certificate is api.tls_certificate
 * and api.tls_key when configured; otherwise STATE/tls.crt and STATE/tls.key,
 * made on first start: a P-256 key and a self-signed certificate for ten
 * years naming the host, localhost, 127.0.0.1 and ::1.  A client pins its
 * fingerprint on first use, as ssh does a host key, or verifies a
 * configured certificate against its CA (--cacert).
 *
 * A reload builds a new context from the files as they are then, so a
 * replaced certificate serves every connection accepted after SIGHUP; the
 * connections open keep the context they were accepted with (each SSL holds
 * a reference).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "cfg.h"
#include "daemon.h"
#include "log.h"
#include "np.h"
#include "state.h"
#include "tls.h"
#include "tls_fp.h"

#define TLS_DAYS	3650		/* a made certificate's lifetime */
#define TLS_PEM_MAX	(64U << 10)	/* a certificate chain file, at most */

/* *cause = the message and OpenSSL's first error, if it has one. */
static NP_PRINTF(2, 3) void
tls_cause(char **cause, const char *fmt, ...)
{
	va_list		 ap;
	char		*msg = NULL, err[256];
	unsigned long	 e;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	if ((e = ERR_get_error()) != 0) {
		ERR_error_string_n(e, err, sizeof err);
		if (asprintf(cause, "%s (%s)", msg != NULL ? msg : "TLS",
		    err) == -1)
			*cause = NULL;
		free(msg);
	} else
		*cause = msg;
	ERR_clear_error();
}

int
tls_file_fingerprint(const char *path, char *fp, size_t fpsz, char **cause)
{
	FILE	*f;
	X509	*x;
	int	 rc;

	*cause = NULL;
	if ((f = fopen(path, "re")) == NULL) {
		tls_cause(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	if (x == NULL) {
		tls_cause(cause, "%s: not a PEM certificate", path);
		return (-1);
	}
	rc = tls_fingerprint(x, fp, fpsz);
	X509_free(x);
	if (rc == -1)
		tls_cause(cause, "%s: cannot take its fingerprint", path);
	return (rc);
}

/* Add the extension nid with the value v (openssl's x509v3_config form). */
static int
tls_ext(X509 *x, int nid, const char *v)
{
	X509V3_CTX	 ctx;
	X509_EXTENSION	*ex;
	int		 rc;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, x, x, NULL, NULL, 0);
	if ((ex = X509V3_EXT_conf_nid(NULL, &ctx, nid, v)) == NULL)
		return (-1);
	rc = X509_add_ext(x, ex, -1) == 1 ? 0 : -1;
	X509_EXTENSION_free(ex);
	return (rc);
}

/* A self-signed certificate of pkey naming this host. */
static X509 *
tls_self_sign(EVP_PKEY *pkey)
{
	X509		*x;
	X509_NAME	*name;
	BIGNUM		*bn = NULL;
	char		 host[256], san[600];
	int		 ok = 0;

	if (gethostname(host, sizeof host) == -1 || host[0] == '\0')
		snprintf(host, sizeof host, "nasperfd");
	host[sizeof host - 1] = '\0';
	/* A name with what a DNS name cannot hold is left to the CN. */
	if (strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-.") == strlen(host) && strcmp(host, "localhost") != 0)
		snprintf(san, sizeof san, "DNS:%s,DNS:localhost,IP:127.0.0.1,"
		    "IP:::1", host);
	else
		snprintf(san, sizeof san, "DNS:localhost,IP:127.0.0.1,IP:::1");
	if ((x = X509_new()) == NULL || (bn = BN_new()) == NULL)
		goto out;
	if (X509_set_version(x, 2) != 1 ||
	    BN_rand(bn, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
	    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) == NULL)
		goto out;
	/* An hour back, for a client whose clock is behind. */
	if (X509_gmtime_adj(X509_getm_notBefore(x), -3600) == NULL ||
	    X509_time_adj_ex(X509_getm_notAfter(x), TLS_DAYS, 0, NULL) ==
	    NULL || X509_set_pubkey(x, pkey) != 1)
		goto out;
	name = X509_get_subject_name(x);
	if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
	    (const unsigned char *)"nasperfd", -1, -1, 0) != 1 ||
	    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
	    (const unsigned char *)host, -1, -1, 0) != 1 ||
	    X509_set_issuer_name(x, name) != 1)
		goto out;
	if (tls_ext(x, NID_basic_constraints, "critical,CA:FALSE") == -1 ||
	    tls_ext(x, NID_key_usage, "critical,digitalSignature") == -1 ||
	    tls_ext(x, NID_ext_key_usage, "serverAuth") == -1 ||
	    tls_ext(x, NID_subject_key_identifier, "hash") == -1 ||
	    tls_ext(x, NID_subject_alt_name, san) == -1)
		goto out;
	if (X509_sign(x, pkey, EVP_sha256()) == 0)
		goto out;
	ok = 1;
out:
	BN_free(bn);
	if (!ok) {
		X509_free(x);
		x = NULL;
	}
	return (x);
}

/* Write what PEM_write_bio_* put in b to dir/name, atomically. */
static int
tls_write_bio(const char *dir, const char *name, BIO *b, int mode)
{
	char	*p;
	long	 len;

	if ((len = BIO_get_mem_data(b, &p)) <= 0) {
		errno = EIO;
		return (-1);
	}
	return (state_write(dir, name, p, (size_t)len, mode));
}

int
tls_make(const char *dir, char *fp, size_t fpsz, char **cause)
{
	EVP_PKEY	*pkey = NULL;
	X509		*x = NULL;
	BIO		*kb = NULL, *cb = NULL;
	int		 rc = -1;

	*cause = NULL;
	if ((pkey = EVP_EC_gen("P-256")) == NULL ||
	    (x = tls_self_sign(pkey)) == NULL) {
		tls_cause(cause, "cannot make a certificate");
		goto out;
	}
	if ((kb = BIO_new(BIO_s_mem())) == NULL ||
	    (cb = BIO_new(BIO_s_mem())) == NULL ||
	    PEM_write_bio_PrivateKey(kb, pkey, NULL, NULL, 0, NULL,
	    NULL) != 1 || PEM_write_bio_X509(cb, x) != 1 ||
	    tls_fingerprint(x, fp, fpsz) == -1) {
		tls_cause(cause, "cannot encode the certificate");
		goto out;
	}
	/* The key first: a certificate on disk always has its key. */
	if (tls_write_bio(dir, TLS_KEY, kb, 0600) == -1 ||
	    tls_write_bio(dir, TLS_CERT, cb, 0644) == -1) {
		tls_cause(cause, "%s: cannot write the certificate: %s", dir,
		    strerror(errno));
		goto out;
	}
	rc = 0;
out:
	BIO_free(kb);
	BIO_free(cb);
	X509_free(x);
	EVP_PKEY_free(pkey);
	return (rc);
}

/*
 * Refuse a key file others could have written or may read, as the state
 * directory's token is refused (state.c): a key anyone can read is no
 * secret, and one anyone could have written is not ours.
 */
static int
tls_key_check(const char *path, char **cause)
{
	struct stat	st;

	if (stat(path, &st) == -1) {
		tls_cause(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISREG(st.st_mode)) {
		tls_cause(cause, "%s: not a regular file", path);
		return (-1);
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		tls_cause(cause, "%s is owned by uid %u, neither root nor the "
		    "user nasperfd runs as: refusing it", path,
		    (unsigned)st.st_uid);
		return (-1);
	}
	if ((st.st_mode & 077) != 0) {
		tls_cause(cause, "%s may be read or written by others (mode "
		    "%03o): refusing it (chmod 600 it)", path,
		    (unsigned)(st.st_mode & 0777));
		return (-1);
	}
	return (0);
}

void
tls_paths(const struct daemon *d, char *cert, char *key, size_t sz)
{
	const struct cfg	*cfg = d->cfg;

	if (cfg->tls_cert[0] != '\0') {
		snprintf(cert, sz, "%s", cfg->tls_cert);
		snprintf(key, sz, "%s", cfg->tls_key);
	} else {
		snprintf(cert, sz, "%s/" TLS_CERT, d->state_dir);
		snprintf(key, sz, "%s/" TLS_KEY, d->state_dir);
	}
}

int
tls_init(struct daemon *d, char **cause)
{
	SSL_CTX		*ctx = NULL;
	X509		*x;
	char		 cert[4200], key[4200], fp[TLS_FP_SIZE];
	struct stat	 st;

	*cause = NULL;
	if (!d->cfg->tls && !d->cfg->synth_tls) {
		tls_shutdown(d);
		return (0);
	}
	tls_paths(d, cert, key, sizeof cert);
	if (d->cfg->tls_cert[0] == '\0' && stat(cert, &st) == -1 &&
	    errno == ENOENT) {
		if (tls_make(d->state_dir, fp, sizeof fp, cause) == -1)
			return (-1);
		log_info("made a self-signed TLS certificate, %s: %s", cert,
		    fp);
	}
	if (tls_key_check(key, cause) == -1)
		return (-1);
	if ((ctx = SSL_CTX_new(TLS_server_method())) == NULL ||
	    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
		tls_cause(cause, "cannot make a TLS context");
		goto fail;
	}
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION |
	    SSL_OP_CIPHER_SERVER_PREFERENCE);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		tls_cause(cause, "%s: cannot load the certificate", cert);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1) {
		tls_cause(cause, "%s: cannot load the key of %s", key, cert);
		goto fail;
	}
	if ((x = SSL_CTX_get0_certificate(ctx)) == NULL ||
	    tls_fingerprint(x, fp, sizeof fp) == -1) {
		tls_cause(cause, "%s: cannot take its fingerprint", cert);
		goto fail;
	}
	if (d->tls_ctx == NULL || strcmp(fp, d->tls_fp) != 0)
		log_info("TLS on%s%s: certificate %s, %s",
		    d->cfg->tls ? " the API" : "", d->cfg->synth_tls ?
		    (d->cfg->tls ? " and the data plane" : " the data plane") :
		    "", cert, fp);
	tls_shutdown(d);
	d->tls_ctx = ctx;
	snprintf(d->tls_fp, sizeof d->tls_fp, "%s", fp);
	return (0);
fail:
	SSL_CTX_free(ctx);
	return (-1);
}

struct bufferevent *
tls_server_bev(struct daemon *d, int fd, int options)
{
	struct bufferevent	*bev;
	SSL			*ssl;

	if (d->tls_ctx == NULL || (ssl = SSL_new(d->tls_ctx)) == NULL)
		return (NULL);
	/* On failure libevent frees ssl itself (BEV_OPT_CLOSE_ON_FREE). */
	if ((bev = bufferevent_openssl_socket_new(d->base, fd, ssl,
	    BUFFEREVENT_SSL_ACCEPTING, options | BEV_OPT_CLOSE_ON_FREE)) ==
	    NULL)
		return (NULL);
	bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return (bev);
}

void
tls_log_errors(struct bufferevent *bev, const char *peer, const char *what)
{
	unsigned long	e;
	char		buf[256];

	while ((e = bufferevent_get_openssl_error(bev)) != 0) {
		if (ERR_GET_LIB(e) == 0)	/* libevent's errno, not TLS's */
			continue;
		ERR_error_string_n(e, buf, sizeof buf);
		log_debug("%s: %s: TLS: %s", what, peer, buf);
	}
}

void
tls_shutdown(struct daemon *d)
{
	SSL_CTX_free(d->tls_ctx);
	d->tls_ctx = NULL;
	d->tls_fp[0] = '\0';
}
