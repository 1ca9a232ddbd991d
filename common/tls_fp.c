/*
 * tls_fp.c: a certificate's fingerprint, for the daemon's log and
 * --fingerprint and for the client's pins.
 */
#include "config.h"

#include <stdio.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "tls_fp.h"

int
tls_fingerprint(X509 *x, char *fp, size_t fpsz)
{
	unsigned char	md[EVP_MAX_MD_SIZE];
	unsigned int	n, i;
	size_t		off;

	if (fpsz < TLS_FP_SIZE || X509_digest(x, EVP_sha256(), md, &n) != 1 ||
	    n != 32)
		return (-1);
	off = (size_t)snprintf(fp, fpsz, "SHA256:");
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(fp + off, fpsz - off, i == 0 ?
		    "%02X" : ":%02X", md[i]);
	return (0);
}
