/*
 * encode.c: what every encoder needs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "encode.h"

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
