/*
 * encode.c: what every encoder needs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "encode.h"
#include "smbstatus.h"

json_t *
enc_text(const char *s)
{
	json_t			*j;
	char			*buf, *p;
	const unsigned char	*u;

	if ((j = json_string(s)) != NULL)
		return (j);
	/* Not UTF-8: a device, mount point or host named so. */
	if ((buf = malloc(strlen(s) * 4 + 1)) == NULL)
		return (NULL);
	for (p = buf, u = (const unsigned char *)s; *u != '\0'; u++) {
		if (*u < 0x80 && *u >= 0x20)
			*p++ = (char)*u;
		else
			p += snprintf(p, 5, "\\x%02x", *u);
	}
	*p = '\0';
	j = json_string(buf);
	free(buf);
	return (j);
}

json_t *
enc_text_or_null(const char *s)
{
	return (s == NULL || *s == '\0' ? json_null() : enc_text(s));
}

/* Signing or encryption: {"degree", "cipher"}. */
static json_t *
enc_smb_crypto(const struct smbstatus_crypto *c)
{
	return (json_pack("{s:s,s:o}", "degree",
	    smbstatus_degree_name(c->degree), "cipher",
	    enc_text_or_null(c->cipher)));
}

/* One SMB session. */
json_t *
enc_smb_session(const struct smbstatus_session *s)
{
	return (json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "pid", s->pid > 0 ? json_integer(s->pid) : json_null(),
	    "user", enc_text_or_null(s->user),
	    "group", enc_text_or_null(s->group),
	    "machine", enc_text_or_null(s->machine),
	    "address", enc_text_or_null(s->address),
	    "dialect", enc_text_or_null(s->dialect),
	    "signing", enc_smb_crypto(&s->signing),
	    "encryption", enc_smb_crypto(&s->encryption)));
}
